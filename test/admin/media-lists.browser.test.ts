// The media library as a list (issue 27, Lists): the count of every match ("Files 1–40 of 45"),
// the list's headers sorting it (aria-sort) and the sort choice for the grid, search as you type
// (one request once typing pauses), the page size, the whole state in the URL (a link opens the
// same list), and
// "Select all 45 that match" moving and deleting every matching file, loaded or not, with
// progress. At 1280 x 800 and at 390 x 844, axe on each. Every check reads /v2 afterwards.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { NetworkWatch } from "./media-helpers.ts";

let env: BrowserEnv;
let page: Page;
let watch: NetworkWatch;
const folders: Record<string, string> = {};
const N = 45;
const pad = (i: number) => String(i).padStart(2, "0");
/** file-00.txt ... file-44.txt, uploaded in that order, sizes 1-45 bytes in another order. */
const NAMES = Array.from({ length: N }, (_, i) => `file-${pad(i)}.txt`);
const sizeOf = (i: number) => ((i * 7) % N) + 1;

beforeAll(async () => {
  env = await startBrowserEnv();
  for (const name of ["Sorted", "Kept"]) folders[name] = (await v2(env, "POST", "/v2/media-folders", { name })).id;
  const fd = new FormData();
  for (const [i, name] of NAMES.entries()) fd.append("file", new Blob(["x".repeat(sizeOf(i))], { type: "text/plain" }), name);
  fd.append("folder", folders.Sorted!);
  const res = await fetch(`${env.origin}/v2/media?duplicate=true`, {
    method: "POST",
    headers: { authorization: `Bearer ${await env.token()}`, "x-svc-project": env.demoProjectId },
    body: fd,
  });
  expect(res.status).toBe(201);
  page = await env.page();
  watch = new NetworkWatch(page);
  await signIn(page, env.origin);
}, 60_000);
afterAll(async () => {
  await env?.close();
});

/** The names the list or grid shows, in order. */
const shown = (p: Page, role: "table" | "list") => p.getByRole(role, { name: "Files: Sorted" }).getByRole("link").allTextContents();
/** The files of a folder as /v2 lists them in `sort`, every page. */
async function listed(folder: string, sort = "-createdAt", q = ""): Promise<string[]> {
  const out: string[] = [];
  let after: string | null = null;
  do {
    const p: { data: { filename: string }[]; next: string | null } = await v2(
      env,
      "GET",
      `/v2/media?limit=100&folder=${folder}&sort=${sort}${q ? `&q=${q}` : ""}${after ? `&after=${encodeURIComponent(after)}` : ""}`,
    );
    out.push(...p.data.map((f) => f.filename));
    after = p.next;
  } while (after);
  return out;
}
const bySize = NAMES.map((n, i) => [n, sizeOf(i)] as const)
  .sort((a, b) => a[1] - b[1])
  .map((x) => x[0]);

describe("the media list (issue 27)", () => {
  test("the count, headers that sort, the sort choice in the grid, search as you type, and the state in the URL", async () => {
    await page.goto(`${env.origin}/admin/media?folder=${folders.Sorted}&view=list`);
    const table = page.getByRole("table", { name: "Files: Sorted" });
    await page.getByText(`Files 1–40 of ${N}`, { exact: true }).waitFor();
    expect(await shown(page, "table")).toEqual([...NAMES].reverse().slice(0, 40));
    expect(await table.getByRole("columnheader", { name: "Uploaded" }).getAttribute("aria-sort")).toBe("descending");

    await table.getByRole("button", { name: "Name" }).click();
    await page.waitForURL((u) => u.searchParams.get("sort") === "name");
    await table.getByRole("link").first().filter({ hasText: "file-00.txt" }).waitFor();
    expect(await shown(page, "table")).toEqual(NAMES.slice(0, 40));
    expect(await table.getByRole("columnheader", { name: "Name" }).getAttribute("aria-sort")).toBe("ascending");
    expect(await table.getByRole("columnheader", { name: "Uploaded" }).getAttribute("aria-sort")).toBeNull();
    await table.getByRole("button", { name: "Name" }).click();
    await page.waitForURL((u) => u.searchParams.get("sort") === "-name");
    await table.getByRole("link").first().filter({ hasText: "file-44.txt" }).waitFor();
    expect(await shown(page, "table")).toEqual([...NAMES].reverse().slice(0, 40));
    expect(await table.getByRole("columnheader", { name: "Name" }).getAttribute("aria-sort")).toBe("descending");
    await table.getByRole("button", { name: "Size" }).click();
    await page.waitForURL((u) => u.searchParams.get("sort") === "size");
    await table.getByRole("link").first().filter({ hasText: bySize[0]! }).waitFor();
    expect(await shown(page, "table")).toEqual(bySize.slice(0, 40));
    expect(await page.getByLabel("Sort", { exact: true }).inputValue()).toBe("size");
    // Load more follows the sort's cursor: the last five by size, none twice.
    await page.getByRole("button", { name: "Load more" }).click();
    await page.getByText(`${N} files`, { exact: true }).waitFor();
    expect(await shown(page, "table")).toEqual(bySize);
    expect(await listed(folders.Sorted!, "size")).toEqual(bySize);

    // The grid has no headers: the sort choice sets the same order.
    await page.getByRole("button", { name: "Grid" }).click();
    await page.getByLabel("Sort", { exact: true }).selectOption({ label: "Largest first" });
    await page.waitForURL((u) => u.searchParams.get("sort") === "-size");
    await page.getByText(`Files 1–40 of ${N}`, { exact: true }).waitFor();
    await page
      .getByRole("list", { name: "Files: Sorted" })
      .getByRole("link")
      .first()
      .filter({ hasText: bySize[N - 1]! })
      .waitFor();
    expect(await shown(page, "list")).toEqual([...bySize].reverse().slice(0, 40));

    // Search as you type: a request once typing pauses (300 ms), for what was typed by then, the
    // last for the whole word: six keys send fewer than six requests. Keys come 20 ms apart, but
    // this process also runs the server, and full suite runs saw a key held back past the pause
    // ("file-" asked, then "file-3"): that is a real pause, so it may ask for a prefix first.
    await page.waitForFunction(() => [...document.images].every((i) => i.complete));
    watch.reset();
    await page.getByLabel("Search", { exact: true }).pressSequentially("file-3", { delay: 20 });
    await page.getByText("10 files", { exact: true }).waitFor();
    const searched = watch.requests.filter((u) => u.startsWith("/v2/media?") && u.includes("q=")).map((u) => new URL(u, env.origin).searchParams.get("q")!);
    expect(searched.at(-1)).toBe("file-3");
    expect(searched.length).toBeLessThan("file-3".length);
    for (const q of searched) expect("file-3".startsWith(q)).toBe(true);
    const expected = await listed(folders.Sorted!, "-size", "file-3");
    expect(await shown(page, "list")).toEqual(expected);
    expect(expected).toHaveLength(10);
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ folder: folders.Sorted, view: "grid", sort: "-size", q: "file-3" });
    await expectAccessible(page);
    await screenshot(page, "media-grid-sorted");

    // The link opens the same list: search, sort and view.
    const other = await env.page();
    await signIn(other, env.origin, url.pathname + url.search);
    await other.getByText("10 files", { exact: true }).waitFor();
    expect(await other.getByLabel("Search", { exact: true }).inputValue()).toBe("file-3");
    expect(await other.getByLabel("Sort", { exact: true }).inputValue()).toBe("-size");
    expect(await shown(other, "list")).toEqual(expected);
    await other.close();

    // The page size: 100 a page brings all 45 at once, in the URL too.
    await page.getByLabel("Search", { exact: true }).fill("");
    await page.waitForURL((u) => !u.searchParams.has("q"));
    await page.getByText(`Files 1–40 of ${N}`, { exact: true }).waitFor();
    await page.getByLabel("Per page", { exact: true }).selectOption("100");
    await page.waitForURL((u) => u.searchParams.get("limit") === "100");
    await page.getByText(`${N} files`, { exact: true }).waitFor();
    expect(await shown(page, "list")).toEqual([...bySize].reverse());
    expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);
    expect(watch.refused).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  }, 90_000);

  test("at 390 x 844: the count, a header that sorts, the sort choice and search; axe finds nothing serious", async () => {
    const phone = await env.page({ width: 390, height: 844 });
    const phoneWatch = new NetworkWatch(phone);
    await signIn(phone, env.origin, `/admin/media?folder=${folders.Sorted}&view=list`);
    await phone.getByText(`Files 1–40 of ${N}`, { exact: true }).waitFor();
    const table = phone.getByRole("table", { name: "Files: Sorted" });
    await table.getByRole("button", { name: "Size" }).click();
    await phone.waitForURL((u) => u.searchParams.get("sort") === "size");
    await table.getByRole("link").first().filter({ hasText: bySize[0]! }).waitFor();
    expect(await table.getByRole("columnheader", { name: "Size" }).getAttribute("aria-sort")).toBe("ascending");
    await phone.getByLabel("Sort", { exact: true }).selectOption({ label: "Name, Z to A" });
    await phone.waitForURL((u) => u.searchParams.get("sort") === "-name");
    await table.getByRole("link").first().filter({ hasText: "file-44.txt" }).waitFor();
    await phone.getByLabel("Search", { exact: true }).fill("file-4");
    await phone.getByText("5 files", { exact: true }).waitFor();
    expect(await shown(phone, "table")).toEqual(["file-44.txt", "file-43.txt", "file-42.txt", "file-41.txt", "file-40.txt"]);
    expect(new URL(phone.url()).searchParams.get("q")).toBe("file-4");
    await expectAccessible(phone);
    await screenshot(phone, "media-list-390");
    expect(phoneWatch.refused).toEqual([]);
    expect(phoneWatch.consoleErrors).toEqual([]);
    await phone.close();
  }, 60_000);

  test("Select all 45 that match moves every matching file with progress, then deletes them all", async () => {
    await page.goto(`${env.origin}/admin/media?folder=${folders.Sorted}&view=list`);
    await page.getByText(`Files 1–40 of ${N}`, { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: `Select all ${N} that match` }).count()).toBe(0);
    await page.getByRole("checkbox", { name: "Select all shown" }).check();
    const bar = page.getByRole("region", { name: "Selected files" });
    await bar.getByText("40 files selected", { exact: true }).waitFor();
    await page.getByRole("button", { name: `Select all ${N} that match` }).click();
    await bar.getByText(`All ${N} files that match selected`, { exact: true }).waitFor();
    // Each move waits a little at the network, so the progress can be seen going.
    await page.route("**/v2/media/*", async (route) => {
      if (route.request().method() === "PATCH") await new Promise((r) => setTimeout(r, 40));
      await route.continue();
    });
    await bar.getByLabel("Move to folder").selectOption({ label: "Kept" });
    await bar.getByRole("button", { name: `Move ${N} files` }).click();
    await page.getByRole("progressbar", { name: new RegExp(`^Moving: \\d+ of ${N}$`) }).waitFor();
    await page.getByText(`${N} files moved to Kept.`, { exact: true }).waitFor();
    await page.unroute("**/v2/media/*");
    expect((await listed(folders.Kept!, "name")).length).toBe(N);
    expect(await listed(folders.Kept!, "name")).toEqual(NAMES);
    expect(await listed(folders.Sorted!)).toEqual([]);
    await page.getByText("No files", { exact: true }).waitFor();

    // In Kept, the 45 that match "file" go together after the confirmation.
    await page.goto(`${env.origin}/admin/media?folder=${folders.Kept}&view=list&q=file`);
    await page.getByText(`Files 1–40 of ${N}`, { exact: true }).waitFor();
    await page.getByRole("checkbox", { name: "Select all shown" }).check();
    await page.getByRole("button", { name: `Select all ${N} that match` }).click();
    // A click on one file goes back to choosing files: the 40 shown, less that one.
    await page.getByRole("checkbox", { name: "Select file-44.txt" }).click();
    await bar.getByText("39 files selected", { exact: true }).waitFor();
    await page.getByRole("checkbox", { name: "Select file-44.txt" }).click();
    await page.getByRole("button", { name: `Select all ${N} that match` }).click();
    await bar.getByRole("button", { name: `Delete ${N} files` }).click();
    await expectAccessible(page);
    await page
      .getByRole("dialog", { name: `Delete ${N} files?` })
      .getByRole("button", { name: `Delete ${N} files` })
      .click();
    await page.getByText(`${N} files deleted.`, { exact: true }).waitFor();
    expect(await listed(folders.Kept!)).toEqual([]);
    expect(watch.refused).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  }, 90_000);
});
