// The demo project's images, made on this machine at first start (no internet): each is a PNG of a
// soft diagonal gradient between two colours picked from its seed, with a few discs, encoded here
// with zlib (first start is synchronous, so no sharp). Each becomes a record of the media library,
// with its bytes in the local store, and entries reference it as `{ id, alt }`.
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { rgbaToThumbHash } from "thumbhash";
import { iso } from "../../infra/clock.ts";
import { localStoreRoot, mediaStorageKey } from "../../infra/media-store/index.ts";
import type { Services } from "../../services.ts";
import { media } from "../../storage/project/schema.ts";
import type { ProjectHandle } from "../../storage/pool.ts";

/** The size of every demo image. */
export const DEMO_WIDTH = 480;
export const DEMO_HEIGHT = 320;

/** A small deterministic generator, so one seed always gives one picture. */
function random(seed: string): () => number {
  let x = Number.parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16) || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) % 1_000_000) / 1_000_000;
  };
}

/** One picture's colours: a gradient from `a` to `b` and three discs, all from the seed. */
function design(seed: string, w: number, h: number) {
  const rnd = random(seed);
  const colour = () => [rnd() * 255, rnd() * 255, rnd() * 255] as const;
  const a = colour();
  const b = colour();
  const discs = Array.from({ length: 3 }, () => {
    const r = (0.1 + rnd() * 0.2) * Math.min(w, h);
    return { x: rnd() * w, y: rnd() * h, r2: r * r, c: colour() };
  });
  return { a, b, discs };
}

/**
 * Writes a picture of `w` x `h` into `out`, `channels` bytes a pixel (3: RGB, 4: RGBA with alpha
 * 255), each row `pad` bytes after the previous one's end (1 leaves PNG's filter byte, 0).
 * Row by row: the gradient, then each disc averaged in over the span of the row it covers, so
 * the cost is the pixels, not pixels x discs (first start makes 44 of these; issue 16).
 */
function paint(seed: string, w: number, h: number, channels: 3 | 4, pad: 0 | 1, out: Uint8Array): void {
  const { a, b, discs } = design(seed, w, h);
  const row = new Float64Array(w * 3);
  let o = 0;
  for (let y = 0; y < h; y++) {
    o += pad;
    for (let x = 0, i = 0; x < w; x++) {
      const t = (x / w + y / h) / 2;
      row[i++] = a[0] + (b[0] - a[0]) * t;
      row[i++] = a[1] + (b[1] - a[1]) * t;
      row[i++] = a[2] + (b[2] - a[2]) * t;
    }
    for (const d of discs) {
      const dy = y - d.y;
      const room = d.r2 - dy * dy;
      if (room <= 0) continue;
      const half = Math.sqrt(room);
      // The pixels x with (x - d.x)^2 < room.
      const from = Math.max(0, Math.floor(d.x - half) + 1);
      const to = Math.min(w - 1, Math.ceil(d.x + half) - 1);
      for (let x = from, i = from * 3; x <= to; x++) {
        row[i] = (row[i]! + d.c[0]) / 2;
        row[i + 1] = (row[i + 1]! + d.c[1]) / 2;
        row[i + 2] = (row[i + 2]! + d.c[2]) / 2;
        i += 3;
      }
    }
    for (let x = 0, i = 0; x < w; x++) {
      out[o++] = row[i++]!;
      out[o++] = row[i++]!;
      out[o++] = row[i++]!;
      if (channels === 4) out[o++] = 255;
    }
  }
}

/** The RGBA pixels of a demo picture of `w` x `h` (for its ThumbHash). */
function pixels(seed: string, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h * 4);
  paint(seed, w, h, 4, 0, out);
  return out;
}

/** A PNG chunk: length, type, data, and the CRC of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, Bun.hash.crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * `raw` in the zlib format PNG wants: a two-byte header, Bun's raw DEFLATE (native, where
 * node:zlib would load its stream machinery on a first start), and the Adler-32 of `raw`.
 */
function zlibWrap(raw: Uint8Array<ArrayBuffer>): Uint8Array {
  const deflated = Bun.deflateSync(raw, { level: 1 });
  const out = new Uint8Array(deflated.length + 6);
  out.set([0x78, 0x01]);
  out.set(deflated, 2);
  new DataView(out.buffer).setUint32(deflated.length + 2, Bun.hash.adler32(raw));
  return out;
}

/** A demo picture as an 8-bit RGB PNG (opaque, so no alpha channel to compress). */
export function demoPng(seed: string, w: number, h: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  // Scanlines painted in place, each after its filter byte 0 (none).
  const raw = new Uint8Array((w * 3 + 1) * h);
  paint(seed, w, h, 3, 1, raw);
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk("IHDR", ihdr), chunk("IDAT", zlibWrap(raw)), chunk("IEND", new Uint8Array(0))]);
}

/**
 * Makes demo images as library records of a project. Only with the local store (its layout is
 * `<dataDir>/media/<projectId>/<mediaId>`, written here synchronously); with an s3 store `make`
 * answers null and the demo keeps picture URLs of its own.
 */
export function demoImageMaker(s: Services, h: ProjectHandle, actor: string): ((seed: string, alt: string) => { id: string; alt: string }) | null {
  if (s.config.media.store !== "local") return null;
  const root = localStoreRoot(s.config.dataDir);
  let seq = (h.sqlite.query("SELECT coalesce(max(seq), 0) AS n FROM media").get() as { n: number }).n;
  return (seed, alt) => {
    const png = demoPng(seed, DEMO_WIDTH, DEMO_HEIGHT);
    const id = s.ids.uuid();
    const storageKey = mediaStorageKey(h.id, id)!;
    const path = join(root, storageKey);
    mkdirSync(dirname(path), { recursive: true });
    mkdirSync(join(root, ".tmp"), { recursive: true });
    const tmp = join(root, ".tmp", id);
    writeFileSync(tmp, png, { mode: 0o600 });
    renameSync(tmp, path);
    // The placeholder from a 48 x 32 picture of the same seed: ThumbHash wants at most 100 x 100,
    // and its few coefficients come out the same from a quarter of the pixels, four times sooner.
    const small = pixels(seed, 48, 32);
    const now = iso(s.clock.now());
    h.db
      .insert(media)
      .values({
        id,
        seq: ++seq,
        filename: `${seed}.png`,
        kind: "image",
        mimeType: "image/png",
        size: png.byteLength,
        width: DEMO_WIDTH,
        height: DEMO_HEIGHT,
        duration: null,
        alt,
        title: alt,
        folderId: null,
        focalPoint: null,
        checksum: createHash("sha256").update(png).digest("hex"),
        placeholder: Buffer.from(rgbaToThumbHash(48, 32, small)).toString("base64"),
        storageKey,
        createdAt: now,
        updatedAt: now,
        createdBy: actor,
      })
      .run();
    return { id, alt: "" };
  };
}
