// The entry list of 10,000 entries in a real browser (issue 27, Quality and speed): sorted by a
// field, the first page and page 400 (opened by its link, a cursor) show the right rows and the
// count. The time each takes to show is printed as a figure, not asserted (the machine is shared;
// the server's own figure is `bun scripts/bench.ts lists`).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { seedBig } from "../../scripts/bench/seed.ts";
import { startBrowserEnv, type BrowserEnv } from "./browser.ts";

let env: BrowserEnv;
let seed: ReturnType<typeof seedBig>;
beforeAll(async () => {
  env = await startBrowserEnv();
  seed = seedBig(env.capa, 10_000, 100);
}, 120_000);
afterAll(async () => {
  await env?.close();
});

/** The list request's own time in the page (resource timing), and the time until the rows show. */
async function timeTo(page: Page, url: string, shown: string): Promise<{ screenMs: number; requestMs: number }> {
  const t = performance.now();
  await page.goto(url);
  await page.getByText(shown, { exact: true }).waitFor();
  const screenMs = performance.now() - t;
  const requestMs = await page.evaluate(() => {
    const lists = performance.getEntriesByType("resource").filter((e) => new URL(e.name).pathname === "/v2/model-instances") as PerformanceResourceTiming[];
    const last = lists[lists.length - 1];
    return last ? last.responseEnd - last.startTime : -1;
  });
  return { screenMs, requestMs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe("a list of 10,000 entries", () => {
  test("sorted by price: page 1 and page 400 by cursor show their rows and the count; the times are printed", async () => {
    const page = await env.page();
    await page.goto(`${env.origin}/admin/sign-in`);
    await page.getByLabel("Email").fill(seed.email);
    await page.getByLabel("Password").fill("bench-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Bench", level: 1 }).waitFor();

    // The cursor of page 400, walked as a script pages (the app keeps each page's cursor in its URL).
    const login = await fetch(`${env.origin}/v2/user/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: seed.email, password: "bench-password" }),
    });
    const token = ((await login.json()) as { accessToken: string }).accessToken;
    let after: string | null = null;
    for (let p = 1; p < 400; p++) {
      const r: Response = await fetch(`${env.origin}/v2/model-instances?model=post&sort=-price&limit=25${after ? `&after=${after}` : ""}`, {
        headers: { authorization: `Bearer ${token}`, "x-svc-project": seed.projectId },
      });
      after = ((await r.json()) as { next: string }).next;
    }

    const first: { screenMs: number; requestMs: number }[] = [];
    const deep: { screenMs: number; requestMs: number }[] = [];
    for (let i = 0; i < 3; i++) {
      first.push(await timeTo(page, `${env.origin}/admin/content/post?sort=-price`, "Entries 1–25 of 10,000"));
      deep.push(await timeTo(page, `${env.origin}/admin/content/post?sort=-price&after=${after}&page=400`, "Entries 9,976–10,000 of 10,000"));
    }
    expect(await page.getByRole("table").getByRole("row").count()).toBe(26);
    expect(await page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
    const f = { screen: median(first.map((x) => x.screenMs)), request: median(first.map((x) => x.requestMs)) };
    const d = { screen: median(deep.map((x) => x.screenMs)), request: median(deep.map((x) => x.requestMs)) };
    console.log(
      `figure: 10,000 entries sorted by -price, opened by URL (page load, session, models, columns, list), median of 3: ` +
        `page 1 shown in ${f.screen.toFixed(0)} ms (list request ${f.request.toFixed(1)} ms); ` +
        `page 400 shown in ${d.screen.toFixed(0)} ms (list request ${d.request.toFixed(1)} ms); ratio of requests ${(d.request / f.request).toFixed(2)}`,
    );
  }, 180_000);
});
