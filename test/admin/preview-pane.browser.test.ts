// The live preview pane (issue 26 item 9) with web security on: a real site on another origin
// (a second local server) is framed beside the form through /admin/preview-frame, whose CSP names
// that origin; the site gets a fresh preview token, the draft by postMessage as it is typed, and
// a reload after every save; the pane switches between desktop, tablet and phone widths.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";

let env: BrowserEnv;
let site: ReturnType<typeof Bun.serve>;
/** Every page the site served: its path and the preview token it was asked with. */
const served: { path: string; token: string | null }[] = [];

// The site: one page per post, counting its loads, showing the draft the editor sends.
const PAGE = (slug: string, n: number) => `<!doctype html><html lang="en"><head><title>Site</title></head><body>
<h1>Page for ${slug}, load ${n}</h1><p id="live">No draft yet</p>
<script>addEventListener("message", (e) => { if (e.data && e.data.type === "capa:draft") document.getElementById("live").textContent = "Draft title: " + e.data.data.title; });</script>
</body></html>`;

beforeAll(async () => {
  env = await startBrowserEnv();
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      served.push({ path: url.pathname, token: url.searchParams.get("preview") });
      return new Response(PAGE(url.pathname.split("/").pop()!, served.length), { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  });
  await v2(env, "PATCH", "/v2/models/post", { previewUrl: `http://127.0.0.1:${site.port}/blog/{slug}?preview={token}` });
}, 60_000);
afterAll(async () => {
  site?.stop(true);
  await env?.close();
});

describe("the preview pane", () => {
  test("frames the site beside the form, sends the draft as it is typed, reloads after Save, at three widths", async () => {
    const e = await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: "Pane test", slug: "pane-test" } });
    const page = await env.page({ width: 1440, height: 900 });
    await signIn(page, env.origin, `/admin/content/post/${e.id}`);
    await page.getByRole("heading", { name: "Pane test", level: 1 }).waitFor();
    const toggle = page.getByRole("button", { name: "Preview", exact: true });
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    await toggle.click();
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    const pane = page.getByRole("region", { name: "Preview" });
    const outer = pane.getByTitle("Preview of Pane test");
    const inner = outer.contentFrame().getByTitle("Preview of the entry").contentFrame();
    await inner.getByRole("heading", { name: "Page for pane-test, load 1" }).waitFor();
    // A fresh preview token, never a stored key.
    expect(served.at(-1)!.path).toBe("/blog/pane-test");
    expect(served.at(-1)!.token).toMatch(/^pvw_/);
    await expectAccessible(page);
    await screenshot(page, "entry-preview-pane");

    // The draft reaches the site as it is typed, before any save.
    await page.getByLabel("Title", { exact: true }).fill("Pane test, edited");
    await inner.getByText("Draft title: Pane test, edited").waitFor();
    expect(served.length).toBe(1);
    // A save reloads the site.
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    await inner.getByRole("heading", { name: "Page for pane-test, load 2" }).waitFor();

    // Widths: the frame is 390 px wide for a phone, 768 for a tablet, the pane's width for desktop.
    await pane.getByRole("radio", { name: "Phone" }).check();
    expect(Math.round((await outer.boundingBox())!.width)).toBe(390);
    await pane.getByRole("radio", { name: "Tablet" }).check();
    expect(Math.round((await outer.boundingBox())!.width)).toBe(768);
    await pane.getByRole("radio", { name: "Desktop" }).check();
    expect(await outer.getAttribute("width")).toBeNull();
    await screenshot(page, "entry-preview-pane-desktop");
  }, 60_000);

  test("at 390 px the pane goes under the form and still works", async () => {
    const e = await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: "Narrow pane", slug: "narrow-pane" } });
    const page = await env.page({ width: 390, height: 844 });
    await signIn(page, env.origin, `/admin/content/post/${e.id}`);
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    const outer = page.getByRole("region", { name: "Preview" }).getByTitle("Preview of Narrow pane");
    await outer
      .contentFrame()
      .getByTitle("Preview of the entry")
      .contentFrame()
      .getByRole("heading", { name: /^Page for narrow-pane/ })
      .waitFor();
    // Nothing wider than the screen but the frame's own scroller.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, "entry-preview-pane-390");
  }, 60_000);
});
