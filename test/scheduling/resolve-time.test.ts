// Wall time plus IANA zone to an instant (decisions.md 7): daylight-saving gaps move forward by
// the gap, overlaps take the earlier instant, both with a note; bad input names its field;
// anything under 60 seconds ahead is in_the_past. Through the route, so nothing is written on refusal.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { resolveTime } from "../../src/domain/scheduling/resolve-time.ts";
import { AppError } from "../../src/errors.ts";
import { post, world, type World } from "./helpers.ts";

const NOW = Date.UTC(2026, 0, 1);

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("resolving wall times", () => {
  test.each([
    [
      "Europe/Berlin",
      "2026-03-29T02:30",
      "2026-03-29T01:30:00.000Z",
      "+02:00",
      /02:30 does not exist on 2026-03-29 in Europe\/Berlin.*skip 60 minutes.*03:30 \(\+02:00\)/,
    ],
    [
      "Europe/Berlin",
      "2026-10-25T02:30",
      "2026-10-25T00:30:00.000Z",
      "+02:00",
      /02:30 happens twice on 2026-10-25 in Europe\/Berlin; .*first one \(\+02:00\), not the second \(\+01:00\)/,
    ],
    ["America/New_York", "2026-03-08T02:15", "2026-03-08T07:15:00.000Z", "-04:00", /02:15 does not exist on 2026-03-08 in America\/New_York/],
    ["America/New_York", "2026-11-01T01:30", "2026-11-01T05:30:00.000Z", "-04:00", /01:30 happens twice/],
    // Lord Howe moves by 30 minutes: the gap is not always an hour.
    ["Australia/Lord_Howe", "2026-10-04T02:15", "2026-10-03T15:45:00.000Z", "+11:00", /skip 30 minutes.*02:45 \(\+11:00\)/],
  ])("%s %s", (zone, wall, at, offset, note) => {
    const r = resolveTime(wall, zone, NOW);
    expect(r).toMatchObject({ at, offset, wallTime: wall, timezone: zone });
    expect(r.note).toMatch(note);
  });

  test("an ordinary time has no note; seconds are kept; the zone's spelling is made canonical", () => {
    const r = resolveTime("2026-07-01T09:00:30", "europe/berlin", NOW);
    expect(r).toEqual({ at: "2026-07-01T07:00:30.000Z", offset: "+02:00", wallTime: "2026-07-01T09:00:30", timezone: "Europe/Berlin" });
    expect(resolveTime("2026-07-01T09:00", "UTC", NOW).at).toBe("2026-07-01T09:00:00.000Z");
  });

  test.each([
    ["2026-02-30T10:00", "UTC", "wallTime"],
    ["2026-03-01 10:00", "UTC", "wallTime"],
    ["2026-03-01T10:00Z", "UTC", "wallTime"],
    ["2026-03-01T10:00+01:00", "UTC", "wallTime"],
    ["2026-03-01T25:00", "UTC", "wallTime"],
    ["2026-03-01", "UTC", "wallTime"],
    [20260301, "UTC", "wallTime"],
    ["2026-03-01T10:00", "Mars/Olympus_Mons", "timezone"],
    ["2026-03-01T10:00", "+02:00", "timezone"],
    ["2026-03-01T10:00", "", "timezone"],
    ["2026-03-01T10:00", 2, "timezone"],
  ])("%p in %p is refused naming %s", (wall, zone, field) => {
    const e = refusal(() => resolveTime(wall, zone, NOW));
    expect(e.code).toBe("invalid_body");
    expect(e.extra).toEqual({ field });
  });

  test("in_the_past below 60 seconds ahead, accepted at exactly 60", () => {
    const e = refusal(() => resolveTime("2026-01-01T00:00:59", "UTC", NOW));
    expect(e.code).toBe("in_the_past");
    expect(e.status).toBe(400);
    expect(refusal(() => resolveTime("2025-06-01T00:00", "UTC", NOW)).code).toBe("in_the_past");
    expect(resolveTime("2026-01-01T00:01:00", "UTC", NOW).at).toBe("2026-01-01T00:01:00.000Z");
  });
});

describe("the route refuses bad times and writes nothing", () => {
  let w: World;
  let entry: { id: string };
  beforeAll(async () => {
    w = await world();
    entry = await post(w);
  });
  afterAll(() => w.h.close());

  test.each([
    [{ wallTime: "2026-11-21T12:00:59", timezone: "UTC" }, 400, "in_the_past"],
    [{ wallTime: "2026-11-21T13:00:30", timezone: "Europe/Berlin" }, 400, "in_the_past"],
    [{ wallTime: "tomorrow", timezone: "UTC" }, 400, "invalid_body"],
    [{ wallTime: "2026-12-01T10:00", timezone: "Nowhere/City" }, 400, "invalid_body"],
  ])("%p", async (when, status, code) => {
    const r = await w.h.json("POST", "/v2/scheduled-actions", {
      token: w.token,
      body: { action: "publish", targets: [{ type: "instance", id: entry.id }], ...when },
    });
    expect(r.status).toBe(status);
    expect(r.body.code).toBe(code);
    expect(r.body.error).toBeString();
    const list = await w.h.json("GET", "/v2/scheduled-actions", { token: w.token });
    expect(list.body.total).toBe(0);
  });

  test("the Berlin gap through the route: resolved carries the note", async () => {
    w.h.clock.set(Date.UTC(2026, 2, 1));
    const r = await w.h.json("POST", "/v2/scheduled-actions", {
      token: w.token,
      body: { action: "publish", targets: [{ type: "instance", id: entry.id }], wallTime: "2026-03-29T02:30", timezone: "Europe/Berlin" },
    });
    expect(r.status).toBe(201);
    expect(r.body.resolved).toEqual({ at: "2026-03-29T01:30:00.000Z", offset: "+02:00", note: expect.stringContaining("does not exist") });
    expect(r.body.actions[0].resolved).toEqual(r.body.resolved);
    expect(r.body.actions[0].wallTime).toBe("2026-03-29T02:30");
  });
});
