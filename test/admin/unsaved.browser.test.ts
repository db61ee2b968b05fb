// Never lose work (issue 26 item 6), the parts that need no new server route: the browser's own
// leave prompt while anything is unsaved, unsaved changes kept in the tab and offered back after
// a reload (Restore and Discard), a conflict's Reload offering the dropped changes back, and
// typing during a slow save kept as unsaved.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  await env?.close();
});

const entry = (title: string) => v2(env, "POST", "/v2/model-instances", { model: "post", data: { title, slug: title.toLowerCase().replace(/\W+/g, "-") } });

describe("unsaved changes", () => {
  test("a reload asks first; the changes come back after it, and Restore puts them in the form", async () => {
    const e = await entry("Reload me");
    const page = await env.page();
    await signIn(page, env.origin, `/admin/content/post/${e.id}`);
    await page.getByLabel("Excerpt", { exact: true }).fill("Typed before the tab went away");
    await page.getByText("Unsaved changes").waitFor();
    // The copy is made a moment after typing stops.
    await page.waitForTimeout(900);
    const asked: string[] = [];
    page.on("dialog", (d) => {
      asked.push(d.type());
      void d.accept();
    });
    await page.reload();
    expect(asked).toEqual(["beforeunload"]);
    const prompt = page.getByRole("alert").filter({ hasText: "Restore your changes?" });
    await prompt.getByText(/^Changes to Excerpt from \d\d:\d\d were kept in this tab but never reached the server\.$/).waitFor();
    expect(await page.getByLabel("Excerpt", { exact: true }).inputValue()).toBe("");
    await expectAccessible(page);
    await screenshot(page, "entry-restore-prompt");
    await prompt.getByRole("button", { name: "Restore changes" }).click();
    expect(await page.getByLabel("Excerpt", { exact: true }).inputValue()).toBe("Typed before the tab went away");
    await page.getByText("Unsaved changes").waitFor();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    expect((await v2(env, "GET", `/v2/model-instances/${e.id}`)).draft.data.excerpt).toBe("Typed before the tab went away");
    // Saved: nothing is offered any more.
    page.removeAllListeners("dialog");
    await page.reload();
    await page.getByRole("heading", { name: "Reload me", level: 1 }).waitFor();
    expect(await page.getByText("Restore your changes?").count()).toBe(0);
  }, 60_000);

  test("Discard forgets the kept changes", async () => {
    const e = await entry("Discard me");
    const page = await env.page();
    page.on("dialog", (d) => void d.accept());
    await signIn(page, env.origin, `/admin/content/post/${e.id}`);
    await page.getByLabel("Excerpt", { exact: true }).fill("Not wanted");
    await page.waitForTimeout(900);
    await page.reload();
    await page.getByRole("button", { name: "Discard" }).click();
    expect(await page.getByText("Restore your changes?").count()).toBe(0);
    await page.reload();
    await page.getByRole("heading", { name: "Discard me", level: 1 }).waitFor();
    expect(await page.getByText("Restore your changes?").count()).toBe(0);
    expect(await page.getByLabel("Excerpt", { exact: true }).inputValue()).toBe("");
  }, 60_000);

  test("a conflict's Reload keeps the changes it dropped, to restore over the newer version", async () => {
    const e = await entry("Conflicted");
    const page = await env.page();
    await signIn(page, env.origin, `/admin/content/post/${e.id}`);
    await page.getByLabel("Excerpt", { exact: true }).fill("Mine");
    await v2(env, "PATCH", `/v2/model-instances/${e.id}`, { data: { title: "Conflicted, theirs" } });
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("dialog", { name: "This entry changed while you edited it" }).getByRole("button", { name: "Reload" }).click();
    await page.getByText("Reloaded version 2.").waitFor();
    expect(await page.getByLabel("Excerpt", { exact: true }).inputValue()).toBe("");
    await page.getByRole("alert").filter({ hasText: "Restore your changes?" }).getByRole("button", { name: "Restore changes" }).click();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    const saved = await v2(env, "GET", `/v2/model-instances/${e.id}`);
    expect([saved.version, saved.draft.data.title, saved.draft.data.excerpt]).toEqual([3, "Conflicted, theirs", "Mine"]);
  }, 60_000);

  test("typing while a save is on its way is kept as unsaved, and the next save sends it", async () => {
    const e = await entry("Slow save");
    const page = await env.page();
    await signIn(page, env.origin, `/admin/content/post/${e.id}`);
    // The real request, held back a little on its way, as on a slow network.
    await page.route(`**/v2/model-instances/${e.id}`, async (route) => {
      if (route.request().method() === "PATCH") await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.getByLabel("Excerpt", { exact: true }).fill("First");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByLabel("Excerpt", { exact: true }).fill("First, then more");
    await page.keyboard.press("Control+s");
    await page.getByText("Saved.").waitFor();
    await page.waitForResponse((r) => r.request().method() === "PATCH" && r.url().endsWith(e.id));
    for (let i = 0; i < 50 && (await page.getByText("Unsaved changes").count()) > 0; i++) await page.waitForTimeout(100);
    const saved = await v2(env, "GET", `/v2/model-instances/${e.id}`);
    expect([saved.version, saved.draft.data.excerpt]).toEqual([3, "First, then more"]);
    expect(await page.getByLabel("Excerpt", { exact: true }).inputValue()).toBe("First, then more");
    expect(await page.getByText("Unsaved changes").count()).toBe(0);
  }, 60_000);
});
