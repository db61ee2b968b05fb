// The media library of issue 27 in the real browser: the grid's thumbnails (the server's exempt
// 160/320 px WebP, srcset, lazy, the ThumbHash until each arrives, no answer that is not 2xx and
// no console error), 200 files dropped at once (queued three at a time, none lost), a pasted file,
// bytes already in the library (the existing file offered, a copy kept on request), bulk move and
// delete (files in use kept and named), a file replaced (same id, new checksum and URL; an image
// used by an image field refused a PDF, naming the entry), and Ctrl+K finding a file by title,
// name and alt. Every check reads /v2 afterwards.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page, Route } from "playwright-core";
import { expectAccessible, rail, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { colourPng, type Listed, NetworkWatch, thumbsDone } from "./media-helpers.ts";

let env: BrowserEnv;
let page: Page;
let watch: NetworkWatch;
/** Folders made for this test, by name. */
const folders: Record<string, string> = {};

beforeAll(async () => {
  env = await startBrowserEnv();
  for (const name of ["Batch", "Archive"]) folders[name] = (await v2(env, "POST", "/v2/media-folders", { name })).id;
  page = await env.page();
  watch = new NetworkWatch(page);
  await signIn(page, env.origin);
}, 60_000);
afterAll(async () => {
  await env?.close();
});

const files = (folder: string): Promise<Listed[]> => v2(env, "GET", `/v2/media?limit=100&folder=${folder}`).then((p) => p.data);
const uploads = () => page.getByRole("region", { name: "Uploads" });

describe("the media library (issue 27)", () => {
  test("the grid shows each picture's ThumbHash until its exempt thumbnail (srcset, lazy) arrives; no answer other than 2xx and no console error", async () => {
    const listed: Listed[] = (await v2(env, "GET", "/v2/media?limit=40")).data;
    const first = listed.find((f) => f.kind === "image" && f.placeholder)!;
    const path = new URL(first.url).pathname;
    // Hold the first picture's thumbnail, so its placeholder can be seen while it "loads".
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route(
      (u) => u.pathname === path,
      async (route: Route) => {
        await held;
        await route.continue();
      },
    );
    watch.reset();
    await (await rail(page, "Screens")).getByRole("link", { name: "Media" }).click();
    await page.getByRole("heading", { name: "All files", level: 2 }).waitFor();
    expect(await page.title()).toBe("Media · Demo · Capa");
    const grid = page.getByRole("list", { name: "Files: All files" });
    const tile = grid.getByRole("listitem").filter({ has: page.getByRole("link", { name: first.filename, exact: true }) });
    await tile.waitFor();
    const shown = () =>
      tile.evaluate((li) => {
        const img = li.getElementsByTagName("img")[0]!;
        const box = img.parentElement!;
        return {
          background: box.style.backgroundImage.slice(0, 26),
          src: img.getAttribute("src"),
          srcset: img.getAttribute("srcset"),
          sizes: img.getAttribute("sizes"),
          loading: img.getAttribute("loading"),
          loaded: img.complete && img.naturalWidth > 0,
          visible: getComputedStyle(img).opacity,
        };
      });
    expect(await shown()).toEqual({
      background: 'url("data:image/png;base64',
      src: `${path}?w=160&fm=webp`,
      srcset: `${path}?w=160&fm=webp 160w, ${path}?w=320&fm=webp 320w`,
      sizes: "160px",
      loading: "lazy",
      loaded: false,
      visible: "0",
    });
    release();
    await page.waitForFunction(
      (p) => [...document.images].some((i) => i.getAttribute("src") === `${p}?w=160&fm=webp` && i.complete && i.naturalWidth > 0),
      path,
    );
    await page.unroute((u) => u.pathname === path);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    expect(await shown()).toMatchObject({ background: "", loaded: true, visible: "1" });

    // Every tile's picture comes, scrolled into view (lazy), with nothing refused.
    await grid.getByRole("listitem").last().scrollIntoViewIfNeeded();
    await thumbsDone(grid);
    const asked = watch.requests.filter((u) => /[?&]w=\d+&fm=webp$/.test(u));
    // One thumbnail for every raster picture of the page (the demo's are all PNGs), none for others.
    const pictures = listed.filter((f) => f.kind === "image" && f.width && !f.url.endsWith(".svg")).length;
    expect(pictures).toBeGreaterThan(20);
    expect(new Set(asked).size).toBe(pictures);
    expect(asked.every((u) => /\?w=(160|320)&fm=webp$/.test(u))).toBe(true);
    expect(watch.refused).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    await expectAccessible(page);
    await screenshot(page, "media-grid-thumbnails");
  }, 90_000);

  test("200 files dropped at once are queued three at a time and every one arrives", async () => {
    await page.goto(`${env.origin}/admin/media?folder=${folders.Batch}`);
    const heading = page.getByRole("heading", { name: "Batch", level: 2 });
    await heading.waitFor();
    watch.reset();
    const transfer = await page.evaluateHandle(() => {
      const t = new DataTransfer();
      for (let i = 0; i < 200; i++) t.items.add(new File([`Batch file ${i}\n`], `batch-${String(i).padStart(3, "0")}.txt`, { type: "text/plain" }));
      return t;
    });
    await heading.dispatchEvent("dragenter", { dataTransfer: transfer });
    await heading.dispatchEvent("drop", { dataTransfer: transfer });
    await uploads()
      .getByRole("status")
      .getByText(/waiting/)
      .waitFor();
    await uploads().getByText("All finished: 200 of 200 uploaded", { exact: true }).waitFor({ timeout: 80_000 });
    expect(watch.maxUploadsInFlight).toBe(3);
    expect(watch.uploads).toBe(200);
    expect(watch.refused).toEqual([]);
    expect(await uploads().getByText("Uploaded", { exact: true }).count()).toBe(200);
    const names: string[] = [];
    let after: string | null = null;
    do {
      const p: { data: Listed[]; next: string | null } = await v2(env, "GET", `/v2/media?limit=100&folder=${folders.Batch}${after ? `&after=${after}` : ""}`);
      names.push(...p.data.map((f) => f.filename));
      after = p.next;
    } while (after);
    expect(names.sort()).toEqual(Array.from({ length: 200 }, (_, i) => `batch-${String(i).padStart(3, "0")}.txt`));
    await page.getByText("Files 1–40 of 200", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Clear finished" }).click();
  }, 120_000);

  test("a pasted picture is uploaded; the same bytes again offer the file the library has, and a copy is kept only when asked", async () => {
    await page.goto(`${env.origin}/admin/media?folder=${folders.Archive}`);
    await page.getByRole("heading", { name: "Archive", level: 2 }).waitFor();
    const png = (await colourPng(300, 200, "#cc5500")).toString("base64");
    await page.evaluate((b64) => {
      const t = new DataTransfer();
      t.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], "pasted.png", { type: "image/png" }));
      window.dispatchEvent(new ClipboardEvent("paste", { clipboardData: t }));
    }, png);
    await uploads().getByRole("listitem").filter({ hasText: "pasted.png" }).getByText("Uploaded").waitFor();
    const [pasted] = await files(folders.Archive!);
    expect(pasted).toMatchObject({ filename: "pasted.png", kind: "image", width: 300, height: 200, folder: folders.Archive });

    await page.getByLabel("Upload", { exact: true }).setInputFiles({ name: "again.png", mimeType: "image/png", buffer: Buffer.from(png, "base64") });
    const row = uploads().getByRole("listitem").filter({ hasText: "again.png" });
    await row.getByText("Already in the library as").waitFor();
    expect((await row.textContent())?.replace(/\s+/g, " ")).toBe("again.pngAlready in the library as pasted.png. Upload a copy anyway");
    expect(await row.getByRole("link", { name: "pasted.png" }).getAttribute("href")).toBe(`/admin/media/${pasted!.id}`);
    expect((await files(folders.Archive!)).map((f) => f.filename)).toEqual(["pasted.png"]);
    await expectAccessible(page);
    await row.getByRole("button", { name: "Upload a copy of again.png anyway" }).click();
    await row.getByText("Uploaded").waitFor();
    const both = await files(folders.Archive!);
    expect(both.map((f) => f.filename)).toEqual(["again.png", "pasted.png"]);
    expect(both[0]!.checksum).toBe(pasted!.checksum);
  }, 60_000);

  test("files selected in the grid (Shift-click for a range) move to a folder together; Select all shown and Delete remove them; a file in use is kept and named", async () => {
    await page.goto(`${env.origin}/admin/media?folder=${folders.Batch}`);
    await page.getByText("Files 1–40 of 200", { exact: true }).waitFor();
    // One click, then Shift-click: the range between, in the grid's order, is selected too (three
    // uploads at a time may arrive out of name order, so the test reads the order shown).
    const order = await page.getByRole("list", { name: "Files: Batch" }).getByRole("link").allTextContents();
    await page.getByRole("checkbox", { name: `Select ${order[0]}` }).click();
    await page.getByRole("checkbox", { name: `Select ${order[2]}` }).click({ modifiers: ["Shift"] });
    const bar = page.getByRole("region", { name: "Selected files" });
    await bar.getByText("3 files selected").waitFor();
    expect(await page.getByRole("checkbox", { name: `Select ${order[1]}` }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: `Select ${order[3]}` }).isChecked()).toBe(false);
    await expectAccessible(page);
    await bar.getByLabel("Move to folder").selectOption({ label: "Archive" });
    await bar.getByRole("button", { name: "Move 3 files" }).click();
    await page.getByText("3 files moved to Archive.", { exact: true }).waitFor();
    expect((await files(folders.Archive!)).map((f) => f.filename).sort()).toEqual(["again.png", ...order.slice(0, 3), "pasted.png"].sort());
    expect(await bar.count()).toBe(0);

    // Select all shown: the 40 newest of the 197 left, deleted after a confirmation.
    await page.getByRole("link", { name: order[3] }).waitFor();
    await page.getByRole("checkbox", { name: "Select all shown" }).check();
    await bar.getByRole("button", { name: "Delete 40 files" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete 40 files?" });
    await confirm.getByRole("button", { name: "Delete 40 files" }).click();
    await page.getByText("40 files deleted.", { exact: true }).waitFor();
    let left = 0;
    let after: string | null = null;
    do {
      const p: { data: Listed[]; next: string | null } = await v2(env, "GET", `/v2/media?limit=100&folder=${folders.Batch}${after ? `&after=${after}` : ""}`);
      left += p.data.length;
      after = p.next;
    } while (after);
    expect(left).toBe(157);

    // In Archive, pasted.png is an entry's cover: deleting everything keeps it and says why.
    const pasted = (await files(folders.Archive!)).find((f) => f.filename === "pasted.png")!;
    await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: "Orange cover", slug: "orange-cover", cover: { id: pasted.id } } });
    await page.goto(`${env.origin}/admin/media?folder=${folders.Archive}`);
    await page.getByText("5 files", { exact: true }).waitFor();
    await page.getByRole("checkbox", { name: "Select all shown" }).check();
    await bar.getByRole("button", { name: "Delete 5 files" }).click();
    await page.getByRole("dialog", { name: "Delete 5 files?" }).getByRole("button", { name: "Delete 5 files" }).click();
    const kept = page.getByRole("dialog", { name: "1 file in use" });
    expect(await kept.getByRole("alert").textContent()).toBe(
      "4 files deleted. This file is used by entries and was kept; deleting it leaves those entries with a missing file:",
    );
    expect(await kept.getByRole("listitem").allTextContents()).toEqual(["pasted.png: used by Orange cover"]);
    await expectAccessible(page);
    await kept.getByRole("button", { name: "Keep them" }).click();
    expect((await files(folders.Archive!)).map((f) => f.id)).toEqual([pasted.id]);
    await page.getByText("1 file", { exact: true }).waitFor();
  }, 90_000);

  test("Replace file keeps the id and takes a new checksum and URL; a PDF for an image an image field uses is refused, naming the entry", async () => {
    const before = (await files(folders.Archive!))[0]!;
    await page.goto(`${env.origin}/admin/media/${before.id}`);
    await page.getByRole("heading", { name: "pasted.png", level: 1 }).waitFor();
    await page.getByLabel("Replace file").setInputFiles({ name: "orange-v2.png", mimeType: "image/png", buffer: await colourPng(320, 240, "#ee7700") });
    await page.getByText("Replaced by orange-v2.png", { exact: false }).waitFor();
    await page.getByRole("heading", { name: "orange-v2.png", level: 1 }).waitFor();
    expect(await page.title()).toBe("orange-v2.png · Media · Demo · Capa");
    const after = await v2(env, "GET", `/v2/media/${before.id}`);
    expect(after).toMatchObject({ id: before.id, filename: "orange-v2.png", width: 320, height: 240, folder: folders.Archive });
    expect(after.checksum).not.toBe(before.checksum);
    expect(after.url).not.toBe(before.url);
    expect((await fetch(env.origin + new URL(before.url).pathname)).status).toBe(404);
    expect((await fetch(env.origin + new URL(after.url).pathname)).status).toBe(200);
    // The entry still holds the id, so it follows; the form shows the new name, nothing unsaved.
    await page.getByRole("region", { name: "Usage" }).getByRole("link", { name: "Orange cover" }).waitFor();
    expect(await page.getByLabel("Filename").inputValue()).toBe("orange-v2.png");
    expect(await page.getByText("Unsaved changes").count()).toBe(0);

    const pdf = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
    await page.getByLabel("Replace file").setInputFiles({ name: "manual.pdf", mimeType: "application/pdf", buffer: pdf });
    const refusal = page.getByRole("alert").filter({ hasText: "Not replaced." });
    await refusal.waitFor();
    expect(await refusal.getByRole("paragraph").textContent()).toBe(
      "Not replaced. orange-v2.png is used by an image field of 1 entry (Orange cover), so it can only be replaced by an image; this file is pdf (application/pdf).",
    );
    expect(await refusal.getByRole("link").allTextContents()).toEqual(["Orange cover"]);
    expect((await v2(env, "GET", `/v2/media/${before.id}`)).checksum).toBe(after.checksum);
    await expectAccessible(page);
    await screenshot(page, "media-replace-refused");
  }, 60_000);

  test("Ctrl+K finds a file by its title, its file name and its alt text", async () => {
    const [file] = await files(folders.Archive!);
    await v2(env, "PATCH", `/v2/media/${file!.id}`, { title: "Harbour at dawn", alt: "Fishing boats moored by the quay" });
    const palette = page.getByRole("dialog", { name: "Command palette" });
    for (const words of ["harbour", "orange-v2", "moored by"]) {
      await page.keyboard.press("Escape");
      await page.getByRole("heading", { level: 1 }).first().click();
      await page.keyboard.press("Control+k");
      await palette.getByRole("combobox", { name: "Search commands" }).fill(words);
      await palette.getByRole("option", { name: "orange-v2.png Media file: Harbour at dawn" }).waitFor();
    }
    await page.keyboard.press("ArrowDown");
    await palette.getByRole("option", { name: "orange-v2.png Media file: Harbour at dawn" }).click();
    await page.getByRole("heading", { name: "orange-v2.png", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/media/${file!.id}`);
  }, 60_000);
});

describe("the media library at 390 x 844", () => {
  test("upload, the grid, selection, the focal point picked by a tap, usage and Replace file work on a phone; axe finds nothing serious", async () => {
    const phone = await env.page({ width: 390, height: 844 });
    const phoneWatch = new NetworkWatch(phone);
    await signIn(phone, env.origin, `/admin/media?folder=${folders.Archive}`);
    await phone.getByRole("heading", { name: "Archive", level: 2 }).waitFor();
    const grid = phone.getByRole("list", { name: "Files: Archive" });
    await thumbsDone(grid);
    // Upload from the phone's file picker: the row, its bar, then the file in the grid.
    await phone.getByLabel("Upload", { exact: true }).setInputFiles({ name: "phone.png", mimeType: "image/png", buffer: await colourPng(120, 90, "#3366aa") });
    await phone.getByRole("region", { name: "Uploads" }).getByText("All finished: 1 of 1 uploaded", { exact: true }).waitFor();
    expect(await phone.getByRole("progressbar", { name: "Upload of phone.png" }).evaluate((el) => (el as HTMLProgressElement).value)).toBe(1);
    await grid.getByRole("link", { name: "phone.png" }).waitFor();
    expect((await files(folders.Archive!)).map((f) => f.filename)).toEqual(["phone.png", "orange-v2.png"]);
    await thumbsDone(grid);
    await phone.getByRole("checkbox", { name: "Select orange-v2.png" }).check();
    await phone.getByRole("region", { name: "Selected files" }).getByText("1 file selected").waitFor();
    await expectAccessible(phone);
    await screenshot(phone, "media-grid-390");
    await phone.getByRole("link", { name: "orange-v2.png" }).click();
    await phone.getByRole("heading", { name: "orange-v2.png", level: 1 }).waitFor();
    const picture = phone.getByRole("button", { name: /^Focal point: the centre\./ });
    await picture.scrollIntoViewIfNeeded();
    const box = (await picture.boundingBox())!;
    await phone.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.6);
    await phone.getByRole("button", { name: /^Focal point: 30% across, 60% down\./ }).waitFor();
    await phone.getByRole("button", { name: "Save" }).click();
    await phone.getByText("Saved.").waitFor();
    const id = (await files(folders.Archive!))[1]!.id;
    expect((await v2(env, "GET", `/v2/media/${id}`)).focalPoint).toEqual({ x: 0.3, y: 0.6 });
    // Usage and Replace file on the phone: the entry that uses it, and new bytes under the same id
    // that keep the focal point.
    await phone.getByRole("region", { name: "Usage" }).getByRole("link", { name: "Orange cover" }).waitFor();
    const v3 = await colourPng(200, 150, "#ff8800");
    expect(v3.length).toBeLessThan(1024);
    await phone.getByLabel("Replace file").setInputFiles({ name: "orange-v3.png", mimeType: "image/png", buffer: v3 });
    await phone.getByRole("heading", { name: "orange-v3.png", level: 1 }).waitFor();
    expect(await phone.getByRole("status").filter({ hasText: "Replaced by" }).textContent()).toBe(
      `Replaced by orange-v3.png (${v3.length} bytes). The file has a new URL; the entries that use it show the new file.`,
    );
    expect(await v2(env, "GET", `/v2/media/${id}`)).toMatchObject({ id, filename: "orange-v3.png", width: 200, height: 150, focalPoint: { x: 0.3, y: 0.6 } });
    await expectAccessible(phone);
    expect(phoneWatch.refused).toEqual([]);
    expect(phoneWatch.consoleErrors).toEqual([]);
  }, 60_000);
});
