// The media library's quality figure (issue 27): with 500 pictures in the library, opening Media
// shows the grid's first screen of thumbnails quickly, with no answer that is not 2xx and no
// console error, and then every one of the 500 thumbnails arrives as the grid is paged and
// scrolled. The 500 files are seeded through the real server as a script would (POST /v2/media,
// 50 files a request). The times are printed for the closing note; the bound asserted is a
// generous one that a loaded machine still meets (the goal is under 1 s on this machine).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { rail, signIn, startBrowserEnv, type BrowserEnv } from "./browser.ts";
import { NetworkWatch, thumbsDone } from "./media-helpers.ts";

const FILES = 500;
/** What the test asserts; the figure it prints is what matters. */
const GENEROUS_MS = 10_000;

let env: BrowserEnv;

/** A 400 x 300 PNG of a gradient of its own (distinct bytes, so no upload is a duplicate). */
function picture(i: number): Promise<Buffer> {
  const w = 400;
  const h = 300;
  const raw = Buffer.alloc(w * h * 3);
  const hue = (i * 47) % 256;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 3;
      raw[o] = (hue + (x >> 1)) & 255;
      raw[o + 1] = (y + i) & 255;
      raw[o + 2] = ((x + y) >> 2) & 255;
    }
  }
  // The first pixel spells the number, so every picture's bytes differ.
  raw[0] = i & 255;
  raw[1] = i >> 8;
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/** Uploads the 500 pictures, 50 to a request, two requests at a time. */
async function seed(): Promise<number> {
  const token = await env.token();
  const started = performance.now();
  const batches = Array.from({ length: FILES / 50 }, (_, b) => b);
  const send = async (b: number) => {
    const form = new FormData();
    for (let i = b * 50; i < b * 50 + 50; i++)
      form.append("file", new Blob([new Uint8Array(await picture(i))], { type: "image/png" }), `seed-${String(i).padStart(3, "0")}.png`);
    const res = await fetch(`${env.origin}/v2/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "x-svc-project": env.demoProjectId },
      body: form,
    });
    if (res.status !== 201) throw new Error(`seeding batch ${b}: ${res.status} ${await res.text()}`);
  };
  for (let b = 0; b < batches.length; b += 2) await Promise.all(batches.slice(b, b + 2).map(send));
  return performance.now() - started;
}

/**
 * Clicks Media in the rail and answers the milliseconds until every tile of the grid that is in
 * view shows its picture (measured in the page), and how many tiles that was.
 */
async function openMedia(page: Page): Promise<{ ms: number; tiles: number; gridMs: number }> {
  const link = (await rail(page, "Screens")).getByRole("link", { name: "Media" });
  const t0 = await page.evaluate(() => performance.now());
  await link.click();
  const grid = page.getByRole("list", { name: "Files: All files" });
  await grid.waitFor();
  const gridMs = (await page.evaluate(() => performance.now())) - t0;
  const shown = await grid.evaluate(
    (el, start) =>
      new Promise<{ ms: number; tiles: number }>((resolve) => {
        const check = () => {
          const inView = [...el.getElementsByTagName("img")].filter((i) => {
            const r = i.getBoundingClientRect();
            return r.bottom > 0 && r.top < innerHeight;
          });
          if (inView.length > 0 && inView.every((i) => i.complete && i.naturalWidth > 0))
            return resolve({ ms: performance.now() - start, tiles: inView.length });
          requestAnimationFrame(check);
        };
        check();
      }),
    t0,
  );
  return { ...shown, gridMs };
}

beforeAll(async () => {
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  await env?.close();
});

describe("Media with 500 files", () => {
  test("the first screen of thumbnails comes fast, then all 500; 0 answers that are not 2xx, 0 console errors", async () => {
    const seeding = await seed();
    const page = await env.page();
    await signIn(page, env.origin);
    const watch = new NetworkWatch(page);
    watch.reset();
    // How long the server took to answer each page of the list, for the note.
    const lists: number[] = [];
    page.on("requestfinished", (r) => {
      if (/\/v2\/media\?/.test(r.url())) lists.push(Math.round(r.timing().responseEnd));
    });

    const cold = await openMedia(page);
    // Opened again: the thumbnails are made and in the browser's cache.
    await (await rail(page, "Screens")).getByRole("link", { name: "Models" }).click();
    await page.getByRole("heading", { name: "Models", level: 1 }).waitFor();
    const warm = await openMedia(page);

    // Every page, every tile scrolled into view, every picture in.
    const started = performance.now();
    const grid = page.getByRole("list", { name: "Files: All files" });
    const tiles = grid.getByRole("listitem");
    // Load more until the count says every file is shown (the button reads "Loading…" meanwhile).
    const everything = page.getByText(/^\d+ files$/);
    while ((await everything.count()) === 0) {
      const before = await tiles.count();
      await page.getByRole("button", { name: "Load more" }).click();
      while ((await tiles.count()) <= before) await page.waitForTimeout(50);
    }
    const total = await tiles.count();
    for (let i = 0; i < total; i += 8) await tiles.nth(i).scrollIntoViewIfNeeded();
    await tiles.last().scrollIntoViewIfNeeded();
    await thumbsDone(grid, 120_000);
    const all = performance.now() - started;
    const thumbs = watch.requests.filter((u) => /\?w=(160|320)&fm=webp$/.test(u)).length;

    console.log(
      `media-500: seeded ${FILES} files in ${Math.round(seeding)} ms; first screen (${cold.tiles} tiles) ${Math.round(cold.ms)} ms cold (grid drawn at ${Math.round(cold.gridMs)} ms), ${warm.tiles} tiles ${Math.round(warm.ms)} ms warm (grid at ${Math.round(warm.gridMs)} ms); all ${total} tiles paged and in view in ${Math.round(all)} ms; list pages answered in ${lists.join(", ")} ms; ${thumbs} thumbnail requests, ${watch.refused.length} answers not 2xx, ${watch.consoleErrors.length} console errors`,
    );
    expect(total).toBeGreaterThanOrEqual(FILES);
    expect(thumbs).toBeGreaterThanOrEqual(FILES);
    expect(watch.refused).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    expect(cold.tiles).toBeGreaterThan(0);
    expect(cold.ms).toBeLessThan(GENEROUS_MS);
    expect(warm.ms).toBeLessThan(GENEROUS_MS);
  }, 300_000);
});
