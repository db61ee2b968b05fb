// The Scheduled screen in a real browser whose zone is Europe/Berlin: the list (targets linking
// to their editors, wall time with its zone, the instant in the viewer's zone, status, batch),
// the status filter and pages in the URL, the calendar by day, a batch with counts, rescheduling
// (in_the_past at the field, a DST gap's note), cancel refused for a running action, retry of a
// failed one and the failures banner. The server's clock is a ManualClock: the test moves it and
// runs the scheduler's own functions (claimDue, runClaimed, runDueActions) instead of sleeping.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { ManualClock } from "../../src/infra/clock.ts";
import { claimDue, runClaimed, runDueActions } from "../../src/domain/scheduling/runner.ts";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const clock = new ManualClock(Date.now());
let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv({}, { clock });
}, 60_000);
afterAll(async () => {
  await env?.close();
});

/** The wall time of an instant in a zone, `YYYY-MM-DDTHH:mm`. */
function wallAt(ms: number, zone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).toPlainDateTime().toString({ smallestUnit: "minute" });
}

/** The instant as the screen shows it in Berlin, `YYYY-MM-DD HH:mm`. */
function berlin(ms: number): string {
  return wallAt(ms, "Europe/Berlin").replace("T", " ");
}

async function entry(title: string, slug?: string): Promise<string> {
  return (await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title, ...(slug ? { slug } : {}) } })).id;
}

async function schedule(ids: string[], wallTime: string, timezone: string): Promise<any> {
  return v2(env, "POST", "/v2/scheduled-actions", { action: "publish", targets: ids.map((id) => ({ type: "instance", id })), wallTime, timezone });
}

const rowOf = (page: Page, title: string) => page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: title, exact: true }) });

describe("scheduled actions", () => {
  test("list, filter, pages, calendar, reschedule, cancel of a running action, retry, failures, batch", async () => {
    const h = env.capa.services.projects.get(env.demoProjectId);
    const t0 = clock.now();
    const launch = await entry("Spring launch", "spring-launch");
    const launchAt = t0 + 2 * DAY;
    await schedule([launch], wallAt(launchAt, "America/New_York"), "America/New_York");
    // Without a slug the post cannot be published: its action fails.
    const broken = await entry("Half-written note");
    const running = await entry("Running late", "running-late");
    await schedule([broken], wallAt(t0 + 2 * MIN, "UTC"), "UTC");
    await schedule([running], wallAt(t0 + 2 * MIN, "UTC"), "UTC");
    const notes: string[] = [];
    for (let i = 1; i <= 24; i++) notes.push(await entry(`Batch note ${i}`, `batch-note-${i}`));
    const batch = await schedule(notes, wallAt(t0 + 3 * DAY, "UTC"), "UTC");

    const page = await env.page({ timezoneId: "Europe/Berlin" });
    await signIn(page, env.origin);
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Scheduled" }).click();
    await page.getByRole("heading", { name: "Scheduled", level: 1 }).waitFor();
    const table = page.getByRole("table", { name: "Scheduled actions" });
    await table.waitFor();
    // Soonest first: the two due in two minutes, then the launch, then the batch; 27 in all, 25 a page.
    expect(await page.getByText("Page 1 of 2 (27 actions)").count()).toBe(1);
    const launchRow = rowOf(page, "Spring launch");
    expect(await launchRow.getByRole("cell").allTextContents()).toEqual([
      "Publish",
      `${wallAt(launchAt, "America/New_York").replace("T", " ")} America/New_York`,
      berlin(launchAt),
      "Pending",
      expect.stringMatching(/^[0-9a-f]{8}$/),
      "RescheduleCancel",
    ]);
    expect(await table.getByRole("columnheader").allTextContents()).toEqual([
      "Target",
      "Action",
      "Wall time",
      "Runs at (your time, Europe/Berlin)",
      "Status",
      "Batch",
      "Actions",
    ]);
    expect(await launchRow.getByRole("link", { name: "Spring launch" }).getAttribute("href")).toBe(`/admin/content/post/${launch}`);
    await expectAccessible(page);
    await screenshot(page, "scheduled-list");

    // The two near actions come due: the runner claims both; the broken one fails, the other is still running.
    clock.advance(2 * MIN);
    const claimed = claimDue(env.capa.services, h, clock.now());
    expect(claimed).toHaveLength(2);
    const other = claimed.find((a) => a.targetId === running)!;
    runClaimed(env.capa.services, h, claimed.find((a) => a.targetId === broken)!, clock.now());
    // The page still shows it pending; cancelling it now is refused and said plainly.
    await rowOf(page, "Running late").getByRole("button", { name: "Cancel publish “Running late”" }).click();
    await page.getByRole("alert").filter({ hasText: "Could not cancel: the action is running right now, so it can no longer be cancelled." }).waitFor();
    await rowOf(page, "Running late").getByText("Running", { exact: true }).waitFor();
    runClaimed(env.capa.services, h, other, clock.now());

    // The failure is in the banner and in the failed filter, whose choice is in the URL.
    const banner = page.getByRole("region", { name: "1 scheduled action failed in the last 7 days" });
    await banner.waitFor();
    expect(await banner.textContent()).toContain(`Latest: publish at ${berlin(clock.now())}: `);
    await banner.getByRole("link", { name: "Show failed actions" }).click();
    await page.waitForURL(/status=failed%2Cdead/);
    expect(await page.getByLabel("Status", { exact: true }).inputValue()).toBe("failed,dead");
    await page.getByText("Page 1 of 1 (1 action)").waitFor();
    const failedRow = rowOf(page, "Half-written note");
    expect(await failedRow.getByRole("cell").nth(3).textContent()).toContain("Failed");
    expect(await failedRow.getByRole("cell").nth(3).textContent()).toContain("Slug is required");
    await expectAccessible(page);

    // Fixed, then retried: a new action that the next tick runs; the failure is answered.
    await v2(env, "PATCH", `/v2/model-instances/${broken}`, { data: { slug: "half-written-note" } });
    await failedRow.getByRole("button", { name: "Retry publish “Half-written note”" }).click();
    await page.getByText(/^Retrying: publish “Half-written note” runs at /).waitFor();
    await banner.waitFor({ state: "detached" });
    expect(runDueActions(env.capa.services, clock.now())).toBe(1);
    expect((await v2(env, "GET", `/v2/model-instances/${broken}`)).status).toBe("published");

    // Pages: back to every status, page 2 holds the rest, in the URL.
    await page.getByLabel("Status", { exact: true }).selectOption({ label: "Any status" });
    await page.getByText("Page 1 of 2 (28 actions)").waitFor();
    await page.getByRole("button", { name: "Next page" }).click();
    await page.waitForURL(/page=2/);
    await page.getByText("Page 2 of 2 (28 actions)").waitFor();
    expect(await page.getByRole("table", { name: "Scheduled actions" }).getByRole("rowheader").count()).toBe(3);
    await page.getByRole("button", { name: "Previous page" }).click();
    await page.getByText("Page 1 of 2 (28 actions)").waitFor();

    // Reschedule one: a time in the past is refused at Time; a time in New York's spring-forward gap gets the server's note.
    await rowOf(page, "Spring launch").getByRole("button", { name: "Reschedule publish “Spring launch”" }).click();
    const dialog = page.getByRole("dialog", { name: "Reschedule publish “Spring launch”" });
    expect(await dialog.getByLabel("Time", { exact: true }).inputValue()).toBe(wallAt(launchAt, "America/New_York"));
    expect(await dialog.getByLabel("Time zone").inputValue()).toBe("America/New_York");
    await dialog.getByLabel("Time", { exact: true }).fill(wallAt(clock.now() - DAY, "America/New_York"));
    await dialog.getByRole("button", { name: "Reschedule" }).click();
    await dialog
      .locator("#reschedule-time-error")
      .getByText(/is less than 60 seconds ahead\.$/)
      .waitFor();
    expect(await dialog.getByLabel("Time", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await expectAccessible(page);
    await dialog.getByLabel("Time", { exact: true }).fill("2027-03-14T02:30");
    await dialog.getByRole("button", { name: "Reschedule" }).click();
    await page
      .getByText(
        "Rescheduled: publish “Spring launch” runs at 2027-03-14 08:30 your time (Europe/Berlin), 2027-03-14 07:30 UTC, offset -04:00. " +
          "02:30 does not exist on 2027-03-14 in America/New_York: the clocks skip 60 minutes there, so the action runs at 03:30 (-04:00).",
      )
      .waitFor();
    const moved = (await v2(env, "GET", `/v2/scheduled-actions?targetId=${launch}`)).data[0];
    expect([moved.wallTime, moved.timezone, moved.resolved.at, moved.status]).toEqual([
      "2027-03-14T02:30:00",
      "America/New_York",
      "2027-03-14T07:30:00.000Z",
      "pending",
    ]);

    // The calendar: March 2027 by day in Berlin; the launch is on the 14th at 08:30 there.
    await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Calendar" }).click();
    await page.waitForURL(/view=calendar/);
    const views = page.getByRole("navigation", { name: "Views" });
    expect([
      await views.getByRole("link", { name: "List" }).getAttribute("aria-current"),
      await views.getByRole("link", { name: "Calendar" }).getAttribute("aria-current"),
    ]).toEqual([null, "page"]);
    await page.goto(`${env.origin}/admin/scheduled?view=calendar&month=2027-03`);
    await page.getByRole("heading", { name: "March 2027", level: 2 }).waitFor();
    const day = page.getByRole("list", { name: "Actions on 2027-03-14" });
    // The month's heading shows before its actions arrive: wait for the day's first one.
    await day.getByRole("listitem").first().waitFor();
    expect(await day.getByRole("listitem").allTextContents()).toEqual(["08:30 Publish Spring launch Pending"]);
    expect(await day.getByRole("link", { name: "Spring launch" }).getAttribute("href")).toBe(`/admin/content/post/${launch}`);
    // Weeks start on Monday: March 2027 begins on a Monday, so its first cell is Monday the 1st
    // (the weekday is shown only on narrow screens).
    expect(await page.getByRole("table", { name: "Scheduled actions in March 2027" }).getByRole("cell").first().textContent()).toBe("Mon 1");
    await expectAccessible(page);
    await screenshot(page, "scheduled-calendar");
    await page.getByRole("link", { name: "Previous month" }).click();
    await page.getByRole("heading", { name: "February 2027", level: 2 }).waitFor();
    expect(page.url()).toContain("month=2027-02");

    // A batch: counts per status, reschedule and cancel its pending actions.
    await page.goto(`${env.origin}/admin/scheduled`);
    await rowOf(page, "Batch note 1")
      .getByRole("link", { name: `Batch ${batch.batchId.slice(-8)}` })
      .click();
    await page.getByRole("heading", { name: `Batch ${batch.batchId.slice(-8)}`, level: 1 }).waitFor();
    // The counts per status, as term and number; waits until they read `want`.
    const counts = (want: string[]) =>
      page.waitForFunction((w) => [...document.querySelectorAll(".facts > div")].map((d) => d.textContent).join("|") === w, want.join("|"));
    await counts(["All24", "Pending24", "Running0", "Done0", "Failed0", "Dead0", "Cancelled0"]);
    await page.getByRole("button", { name: "Reschedule batch" }).click();
    const batchDialog = page.getByRole("dialog", { name: "Reschedule 24 pending actions" });
    const later = t0 + 5 * DAY;
    await batchDialog.getByLabel("Time", { exact: true }).fill(wallAt(later, "UTC"));
    await batchDialog.getByRole("button", { name: "Reschedule" }).click();
    await page
      .getByText(`Rescheduled the batch: runs at ${berlin(later)} your time (Europe/Berlin), ${wallAt(later, "UTC").replace("T", " ")} UTC, offset +00:00.`)
      .waitFor();
    await expectAccessible(page);
    await screenshot(page, "scheduled-batch");
    await page.getByRole("button", { name: "Cancel batch" }).click();
    await page.getByText("Cancelled 24 pending actions.").waitFor();
    await counts(["All24", "Pending0", "Running0", "Done0", "Failed0", "Dead0", "Cancelled24"]);
    expect(await page.getByRole("button", { name: "Cancel batch" }).count()).toBe(0);
    const after = await v2(env, "GET", `/v2/scheduled-actions/batch/${batch.batchId}`);
    expect(after.counts.cancelled).toBe(24);
    expect(after.actions.every((a: { resolved: { at: string } }) => a.resolved.at === new Date(Math.floor(later / MIN) * MIN).toISOString())).toBe(true);
  }, 120_000);

  test("at 360 px wide in dark mode the list and the calendar still read", async () => {
    const page = await env.page({ width: 360, height: 780, colorScheme: "dark", timezoneId: "Europe/Berlin" });
    await signIn(page, env.origin, "/admin/scheduled?status=cancelled");
    await page.getByRole("table", { name: "Scheduled actions" }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "scheduled-list-360-dark");
    await page.goto(`${env.origin}/admin/scheduled?view=calendar&month=2027-03`);
    await page.getByRole("list", { name: "Actions on 2027-03-14" }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "scheduled-calendar-360-dark");
  }, 60_000);
});
