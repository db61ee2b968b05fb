// The render queue (issue 24, item 2) with jobs held open by the test and time driven by the
// injected clock: fair between clients, within its memory budget, a slot kept for small work, and
// admission that refuses with an honest Retry-After what would wait too long.
import { describe, expect, test } from "bun:test";
import { ManualClock } from "./clock.ts";
import { type RenderJob, RenderQueue, RenderRefused, type RenderSlot } from "./render-queue.ts";

const MP = 1_000_000;
/** Lets every queued callback run (an event-loop turn, not a wait for time). */
const turn = () => new Promise<void>((r) => setImmediate(r));

/** A queue whose jobs run until the test ends them; `started` lists names in start order. */
function harness(opts: Partial<ConstructorParameters<typeof RenderQueue>[0]> = {}) {
  const clock = new ManualClock(0);
  const q = new RenderQueue({ slots: 2, budgetBytes: 1000, clock, ...opts });
  const started: string[] = [];
  const ends = new Map<string, () => void>();
  const slots = new Map<string, RenderSlot>();
  const done = new Map<string, Promise<void>>();
  const add = (name: string, job: Partial<RenderJob> & { client: string }, admit = false) => {
    const p = q.run(
      { pixels: MP, bytes: 10, kind: "render:image/png", ...job },
      async (slot) => {
        started.push(name);
        slots.set(name, slot);
        await new Promise<void>((r) => ends.set(name, r));
      },
      { admit },
    );
    done.set(name, p);
    return p;
  };
  const end = async (name: string) => {
    await turn();
    ends.get(name)!();
    await done.get(name);
    await turn();
  };
  return { q, clock, started, slots, add, end };
}

function refusal(fn: () => unknown): RenderRefused {
  try {
    fn();
  } catch (err) {
    if (err instanceof RenderRefused) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("RenderQueue", () => {
  test("fair: a second client's job starts before the third job of a client that queued first", async () => {
    const h = harness();
    for (const n of ["a1", "a2", "a3", "a4"]) h.add(n, { client: "a" });
    h.add("b1", { client: "b" });
    await turn();
    expect(h.started).toEqual(["a1", "a2"]);
    await h.end("a1");
    expect(h.started).toEqual(["a1", "a2", "b1"]);
    await h.end("a2");
    await h.end("b1");
    expect(h.started).toEqual(["a1", "a2", "b1", "a3", "a4"]);
  });

  test("charged by pixels: a client whose jobs are large waits while a client of small jobs catches up", async () => {
    const h = harness({ slots: 3 });
    h.add("big", { client: "a", pixels: 10 * MP });
    h.add("s1", { client: "b" });
    h.add("s2", { client: "b" });
    await turn();
    h.add("big2", { client: "a", pixels: 10 * MP });
    h.add("s3", { client: "b" });
    await h.end("s1");
    // b has been served 2 MP, a 10 MP: b's next job goes first.
    expect(h.started).toEqual(["big", "s1", "s2", "s3"]);
  });

  test("a slot is kept for small work: one client's large jobs run one at a time on 2 slots, and a small job starts at once", async () => {
    const h = harness();
    for (const n of ["L1", "L2", "L3"]) h.add(n, { client: "flood", pixels: 100 * MP });
    await turn();
    expect(h.started).toEqual(["L1"]);
    h.add("small", { client: "other", pixels: 2 * MP });
    await turn();
    expect(h.started).toEqual(["L1", "small"]);
    await h.end("L1");
    expect(h.started).toEqual(["L1", "small", "L2"]);
  });

  test("within the budget: reservations beyond it wait; a job that shrinks its reservation lets the next start", async () => {
    // Budget 1000: one job may hold 500, large jobs together 750, and a job over 250 counts as large.
    const h = harness({ slots: 4 });
    h.add("x", { client: "a", bytes: 500 });
    h.add("y", { client: "b", bytes: 240 });
    h.add("z", { client: "c", bytes: 240 });
    h.add("w", { client: "d", bytes: 100 });
    await turn();
    // 500 + 240 + 240 = 980; w's 100 would pass 1000.
    expect(h.started).toEqual(["x", "y", "z"]);
    expect([h.q.active, h.q.bytesInUse, h.q.waiting]).toEqual([3, 980, 1]);
    // x reads its header and needs 200 after all: w starts.
    h.slots.get("x")!.shrink(200);
    await turn();
    expect(h.started).toEqual(["x", "y", "z", "w"]);
    expect([h.q.active, h.q.bytesInUse, h.q.waiting]).toEqual([4, 780, 0]);
  });

  test("large jobs together hold at most three quarters of the budget", async () => {
    const h = harness({ slots: 4 });
    h.add("L1", { client: "a", bytes: 400 });
    h.add("L2", { client: "b", bytes: 400 });
    h.add("s", { client: "c", bytes: 200 });
    await turn();
    // L1 + L2 = 800 > 750: L2 waits, and the small job does not wait behind it.
    expect(h.started).toEqual(["L1", "s"]);
    await h.end("L1");
    expect(h.started).toEqual(["L1", "s", "L2"]);
  });

  test("a reservation over half the budget is held at half (the caller refuses what needs more)", async () => {
    const h = harness();
    h.add("huge", { client: "a", bytes: 10_000 });
    await turn();
    expect(h.q.bytesInUse).toBe(500);
    expect(h.q.decodeLimit).toBe(500);
  });
});

describe("RenderQueue admission", () => {
  test("past the queue's bound: refused at once, Retry-After when the soonest running job should end", () => {
    const h = harness({ maxQueue: 1 });
    h.add("r1", { client: "a" }, true);
    h.add("r2", { client: "b" }, true);
    h.add("w1", { client: "c" }, true);
    const err = refusal(() => h.add("w2", { client: "d" }, true));
    expect([err.reason, err.retryAfterS, err.message]).toEqual(["queue_full", 1, "The server is busy making other image variants."]);
    expect(h.q.waiting).toBe(1);
  });

  test("past a client's share of the queue: refused, Retry-After when its first waiting job should start", () => {
    const h = harness({ maxQueue: 16, perClientQueue: 2 });
    // 10 MP at the prior speed (20 ns a pixel) is 210 ms; two run, two wait.
    for (const n of ["a1", "a2", "a3", "a4"]) h.add(n, { client: "a", pixels: 10 * MP }, true);
    const err = refusal(() => h.add("a5", { client: "a", pixels: 10 * MP }, true));
    expect([err.reason, err.retryAfterS, err.message]).toEqual(["client_share", 1, "This client already has 2 new image variants waiting."]);
    // Another client still gets in.
    h.add("b1", { client: "b", pixels: 10 * MP }, true);
    expect(h.q.waiting).toBe(3);
  });

  test("a job that would wait longer than 3 s is refused with the seconds until it would not; the speed is learnt from finished jobs", async () => {
    const h = harness({ maxQueue: 100, perClientQueue: 100 });
    // One 10 MP job that takes 2,010 ms of the clock: 200 ns a pixel from now on (2,010 ms a job).
    const first = h.add("learn", { client: "a", pixels: 10 * MP });
    await turn();
    h.clock.advance(2010);
    await h.end("learn");
    await first;
    expect(h.q.estimateMs("render:image/png", 10 * MP)).toBe(2010);
    // Two run at once; the third waits 2,010 ms, the fifth 4,020 ms: refused, retry in 2 s.
    for (const n of ["a1", "a2", "a3", "a4"]) h.add(n, { client: "a", pixels: 10 * MP }, true);
    const err = refusal(() => h.add("a5", { client: "a", pixels: 10 * MP }, true));
    expect([err.reason, err.retryAfterS, err.message]).toEqual(["wait", 2, "The server is busy making image variants; this one would wait about 4 s."]);
    // Another client's job goes before a's waiting ones, so it waits one job, not four: admitted.
    h.add("b1", { client: "b", pixels: 10 * MP }, true);
    // Time passes: after 2 s the running jobs are expected to be over and a5 would wait 2 s.
    h.clock.advance(2000);
    await h.end("a1");
    await h.end("a2");
    expect(h.started).toEqual(["learn", "a1", "a2", "b1", "a3"]);
  });

  test("uploads' probes are never refused: they wait their turn", async () => {
    const h = harness({ maxQueue: 1 });
    for (const n of ["p1", "p2", "p3", "p4", "p5"]) h.add(n, { client: "user:1" });
    await turn();
    expect([h.q.active, h.q.waiting]).toEqual([2, 3]);
  });
});
