import { afterEach, expect, test } from "bun:test";
import { JobTable } from "./jobs.ts";
import { ManualClock } from "./clock.ts";
import { createLogger } from "./log.ts";

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

test("patterns are read in UTC, whatever the host's zone", async () => {
  // Kathmandu is 5 h 45 min ahead of UTC: a local reading of "at minute 0" would fire at :15 UTC.
  process.env.TZ = "Asia/Kathmandu";
  const table = new JobTable(
    new ManualClock(0),
    createLogger("error", () => {}),
  );
  table.add({ name: "hourly", pattern: "0 0 * * * *", run: () => {} });
  expect(table.nextRun("hourly")).toBeNull();
  table.start();
  try {
    const next = table.nextRun("hourly")!;
    expect([next.getUTCMinutes(), next.getUTCSeconds(), next.getUTCMilliseconds()]).toEqual([0, 0, 0]);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(3_600_000);
    expect(next.getTime()).toBeGreaterThan(Date.now());
  } finally {
    await table.stop(0);
  }
});
