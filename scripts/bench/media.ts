// `bench media` (`bun scripts/bench.ts media`, with the statements figure of media-statements.ts):
// serving an original ~200 KB image against a bare Bun.serve of the same file, a cached variant
// against the original, the first render of a 1600 px JPEG to a 400 px WebP, single-flight under
// 50 concurrent requests, and RSS growth while a large upload streams to disk.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseTransform, resolveTransform } from "../../src/domain/media/transform.ts";
import type { ServableMedia } from "../../src/domain/media/types.ts";
import { VariantService } from "../../src/domain/media/variants.ts";
import { systemClock } from "../../src/infra/clock.ts";
import { openLocalStore } from "../../src/infra/media-store/local.ts";
import { VariantCache } from "../../src/infra/variant-cache.ts";
import { jpeg1600 } from "../../test/media/fixtures.ts";
import type { Figure } from "./entries.ts";
import { load, median, spawnServer } from "./load.ts";

const fmt = (n: number, d = 2) => n.toFixed(d);

/** Req/s of two URLs in alternating rounds; medians of each and of the per-round ratios. */
async function versus(a: string, b: string, headers: Record<string, string> = {}): Promise<{ a: number; b: number; ratio: number }> {
  await load(a, headers, 16, 1);
  await load(b, headers, 16, 1);
  const as: number[] = [];
  const bs: number[] = [];
  const rs: number[] = [];
  for (let i = 0; i < 6; i++) {
    const x = await load(a, headers, 32, 2);
    const y = await load(b, headers, 32, 2);
    as.push(x.rps);
    bs.push(y.rps);
    rs.push(x.rps / y.rps);
  }
  return { a: median(as), b: median(bs), ratio: median(rs) };
}

/** Every media figure, in one run. `uploadBytes` sizes the RSS figure's upload (default 1 GiB). */
export async function benchMedia(uploadBytes = 1024 ** 3): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), "capa-bench-media-"));
  const figures: Figure[] = [];
  try {
    const photo = await jpeg1600(1600, 1067);
    const image = join(dir, "photo.jpg");
    await Bun.write(image, photo);

    const ours = await spawnServer(join(import.meta.dir, "serve-media.ts"), [image, "ours"]);
    const bare = await spawnServer(join(import.meta.dir, "serve-media.ts"), [image, "bare"]);
    try {
      const original = await versus(ours.info.url, bare.info.url);
      figures.push({
        figure: `original ${photo.byteLength} B JPEG, req/s (target ratio >= 0.5)`,
        value: fmt(original.a, 0),
        baseline: `${fmt(original.b, 0)} (bare Bun.serve of the file)`,
        ratio: fmt(original.ratio),
      });
      const variantUrl = `${ours.info.url}?w=400&fm=webp`;
      const v = await fetch(variantUrl);
      const variantBytes = (await v.arrayBuffer()).byteLength;
      const cached = await versus(variantUrl, ours.info.url);
      figures.push({
        figure: `cached variant w=400 WebP (${variantBytes} B), req/s (target ratio >= 0.5)`,
        value: fmt(cached.a, 0),
        baseline: `${fmt(cached.b, 0)} (the original)`,
        ratio: fmt(cached.ratio),
      });
    } finally {
      ours.proc.kill();
      bare.proc.kill();
    }

    // First renders: each iteration asks a variant never made before (the quality differs).
    const store = await openLocalStore(join(dir, "media"));
    await store.put("proj/photo", photo);
    const media: ServableMedia = {
      id: "photo",
      filename: "photo.jpg",
      kind: "image",
      mimeType: "image/jpeg",
      size: photo.byteLength,
      width: 1600,
      height: 1067,
      checksum: new Bun.CryptoHasher("sha256").update(photo).digest("hex"),
      focalPoint: null,
      storageKey: "proj/photo",
    };
    const svc = new VariantService({
      cache: await VariantCache.open(join(dir, "variants"), 1 << 30),
      clock: systemClock,
      maxPixels: 1e8,
      perClient: { rate: 1000, burst: 1000 },
    });
    const t = (q: string) => resolveTransform(parseTransform(new URLSearchParams(q))!, null, "image/jpeg");
    const times: number[] = [];
    for (let q = 60; q < 81; q++) {
      const t0 = performance.now();
      await svc.get(media, store, t(`w=400&fm=webp&q=${q}`), "bench");
      times.push(performance.now() - t0);
    }
    figures.push({ figure: "first render, 1600 px JPEG to 400 px WebP, p50 of 20 (ms)", value: fmt(median(times.slice(1)), 1), baseline: "", ratio: "" });
    const before = svc.renders;
    await Promise.all(Array.from({ length: 50 }, () => svc.get(media, store, t("w=401&fm=webp"), "bench")));
    figures.push({
      figure: "renders caused by 50 concurrent requests for one new variant",
      value: String(svc.renders - before),
      baseline: "1 expected",
      ratio: "",
    });

    figures.push(await uploadRss(uploadBytes));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

/** Streams a multipart body with one file of `size` bytes to `url`; the server's answer. */
async function streamUpload(url: string, size: number): Promise<{ size: number; start: number; peak: number; secs: number }> {
  const enc = new TextEncoder();
  const head = enc.encode('--b\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n');
  const tail = enc.encode("\r\n--b--\r\n");
  const chunk = new Uint8Array(1024 * 1024).fill(7);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(head);
    },
    pull(c) {
      if (sent >= size) {
        c.enqueue(tail);
        c.close();
        return;
      }
      const n = Math.min(chunk.byteLength, size - sent);
      sent += n;
      c.enqueue(n === chunk.byteLength ? chunk : chunk.subarray(0, n));
    },
  });
  const t0 = performance.now();
  const r = await fetch(url, { method: "POST", headers: { "content-type": "multipart/form-data; boundary=b" }, body });
  const out = (await r.json()) as { size: number; start: number; peak: number };
  return { ...out, secs: (performance.now() - t0) / 1000 };
}

/** Server RSS growth while an upload of `size` bytes streams to disk over HTTP, against a server that drops the body. */
export async function uploadRss(size: number): Promise<Figure> {
  const ours = await spawnServer(join(import.meta.dir, "serve-upload.ts"), []);
  const drain = await spawnServer(join(import.meta.dir, "serve-upload.ts"), ["drain"]);
  try {
    const a = await streamUpload(ours.info.url, size);
    if (a.size !== size) throw new Error(`upload stored ${a.size} of ${size} bytes`);
    const b = await streamUpload(drain.info.url, size);
    const mb = (n: number) => fmt(n / 1024 ** 2, 1);
    return {
      figure: `server RSS growth while a ${fmt(size / 1024 ** 3, 2)} GiB upload streams to disk over HTTP (target < 64 MB), ${fmt(size / 1024 ** 2 / a.secs, 0)} MB/s`,
      value: `${mb(a.peak - a.start)} MB (from ${mb(a.start)} MB)`,
      baseline: `${mb(b.peak - b.start)} MB (bare Bun.serve dropping the body)`,
      ratio: "",
    };
  } finally {
    ours.proc.kill();
    drain.proc.kill();
  }
}

if (import.meta.main) {
  const rows = await benchMedia(Number(process.argv[2] ?? 1024 ** 3));
  console.log("| figure | value | baseline (same run) | ratio |\n|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.figure} | ${r.value} | ${r.baseline} | ${r.ratio} |`);
  process.exit(0);
}
