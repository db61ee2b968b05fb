// A field change survives a crash: the app is closed mid-way (after a chunk, or once the model
// is moving) and reopened on the same data directory, and the job finishes the change with every
// entry converted exactly once. A step that throws loses only itself and reports the change as
// failed; resume finishes it. The conversion used wraps a text into a list, so a value converted
// twice would read as a list inside a list.
import { afterEach, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { readEntries, scopedKey } from "../agent-keys.ts";
import { change, entry, model, planAndApply, run } from "./helpers.ts";

const open: Harness[] = [];
afterEach(() => {
  // Only the last harness of a test removes the directory; the others were closed as a crash.
  open.pop()?.close();
  open.length = 0;
});

/** A model with 7 entries (each with two versions) and an applied string -> list change. */
async function setUp() {
  const h = startApp();
  open.push(h);
  const { token, project } = await withOwner(h);
  const dev = await scopedKey(h, token, ["instance:read"], "development");
  const m = await model(h, token, "wrap", [
    { namespace: "v", type: "string" },
    { namespace: "i", type: "number" },
  ]);
  for (let i = 0; i < 7; i++) {
    const e = await entry(h, token, "wrap", { v: `first-${i}`, i }, i % 2 === 0);
    await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body: { data: { v: `x${i}` } } });
  }
  const { change: ch } = await planAndApply(h, token, "wrap", { editFields: [{ id: m.f.v, type: "array", arrayType: "string" }] }, () => ({
    choice: "convert",
  }));
  return { h, token, dev, m, ch, projectId: project.id };
}

/** Simulates a crash: the process's files are closed with no clean-up of the change. */
function crash(h: Harness): Harness {
  h.capa.close();
  const again = startApp({}, h.dir);
  open.push(again);
  return again;
}

async function expectConvertedOnce(h: Harness, token: string, dev: string, chId: string) {
  const c = await change(h, token, chId);
  expect(c).toMatchObject({ state: "done", progress: { total: 7, done: 7, failed: 0 } });
  const rows = await readEntries(h, dev, "wrap", "sort=i");
  expect(rows.map((r) => r.v)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => [`x${i}`]));
  const prod = await scopedKey(h, token, ["instance:read"], "production");
  expect((await readEntries(h, prod, "wrap", "sort=i")).map((r) => r.v)).toEqual([0, 2, 4, 6].map((i) => [`first-${i}`]));
  for (const r of rows) {
    const versions = (await h.json("GET", `/v2/model-instances/${r.id}/versions`, { token })).body.data;
    expect(versions.map((v: any) => v.data.v)).toEqual([[`x${r.i}`], [`first-${r.i}`]]);
  }
}

describe("a crash", () => {
  test("after one chunk: reopened, the job resumes from the cursor and converts every entry once", async () => {
    const { h, token, dev, ch } = await setUp();
    // queued -> converting, then one chunk of three entries.
    expect(await run(h, { maxSteps: 2, chunkSize: 3 })).toBe(2);
    expect(await change(h, token, ch.id)).toMatchObject({ state: "converting", progress: { done: 3 } });
    const h2 = crash(h);
    expect(await change(h2, token, ch.id)).toMatchObject({ state: "converting", progress: { done: 3 } });
    // The first run after start-up finds the change on its own.
    await run(h2, { chunkSize: 3 });
    await expectConvertedOnce(h2, token, dev, ch.id);
  });

  test("while moving: reopened, the job moves the model and entries once", async () => {
    const { h, token, dev, ch } = await setUp();
    await run(h, { maxSteps: 4, chunkSize: 3 });
    expect((await change(h, token, ch.id)).state).toBe("moving");
    const h2 = crash(h);
    expect((await change(h2, token, ch.id)).state).toBe("moving");
    await run(h2);
    await expectConvertedOnce(h2, token, dev, ch.id);
  });

  test("inside a step: the step's writes are undone, the change reports failed, and resume finishes it", async () => {
    const { h, token, dev, ch, projectId } = await setUp();
    await run(h, { maxSteps: 2, chunkSize: 3 });
    const hdl = h.capa.services.projects.get(projectId);
    // The next chunk dies half-way: staging its second entry raises inside the transaction.
    hdl.sqlite.exec(`CREATE TEMP TRIGGER boom BEFORE INSERT ON field_change_rows
      WHEN (SELECT count(*) FROM field_change_rows) >= 4 BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`);
    await run(h, { maxSteps: 1, chunkSize: 3 });
    const failed = await change(h, token, ch.id);
    expect(failed).toMatchObject({
      state: "failed",
      progress: { done: 3 },
      error: { code: "internal", message: "The change stopped on an unexpected error; resume it to try again." },
    });
    expect(hdl.sqlite.query("SELECT count(*) AS n FROM field_change_rows WHERE change_id = ?").get(ch.id)).toEqual({ n: 3 });
    hdl.sqlite.exec("DROP TRIGGER boom");
    expect((await h.json("POST", `/v2/field-changes/${ch.id}/resume`, { token, body: {} })).status).toBe(200);
    await run(h, { chunkSize: 3 });
    await expectConvertedOnce(h, token, dev, ch.id);
  });
});
