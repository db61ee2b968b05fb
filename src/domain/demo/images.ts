// The demo project's images, made on this machine at first start (no internet): each is a PNG of a
// soft diagonal gradient between two colours picked from its seed, with a few discs, encoded here
// with zlib (first start is synchronous, so no sharp). Each becomes a record of the media library,
// with its bytes in the local store, and entries reference it as `{ id, alt }`.
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { crc32, deflateSync } from "node:zlib";
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

/** The RGBA pixels of a demo picture of `w` x `h`. */
function pixels(seed: string, w: number, h: number): Uint8Array {
  const rnd = random(seed);
  const a = [rnd() * 255, rnd() * 255, rnd() * 255];
  const b = [rnd() * 255, rnd() * 255, rnd() * 255];
  const discs = Array.from({ length: 3 }, () => {
    const r = (0.1 + rnd() * 0.2) * Math.min(w, h);
    return { x: rnd() * w, y: rnd() * h, r2: r * r, c: [rnd() * 255, rnd() * 255, rnd() * 255] };
  });
  const out = new Uint8Array(w * h * 4);
  let o = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const t = (x / w + y / h) / 2;
      let r = a[0]! + (b[0]! - a[0]!) * t;
      let g = a[1]! + (b[1]! - a[1]!) * t;
      let bl = a[2]! + (b[2]! - a[2]!) * t;
      for (let i = 0; i < 3; i++) {
        const d = discs[i]!;
        const dx = x - d.x;
        const dy = y - d.y;
        if (dx * dx + dy * dy < d.r2) {
          r = (r + d.c[0]!) / 2;
          g = (g + d.c[1]!) / 2;
          bl = (bl + d.c[2]!) / 2;
        }
      }
      out[o++] = r;
      out[o++] = g;
      out[o++] = bl;
      out[o++] = 255;
    }
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** Encodes RGBA pixels as an 8-bit RGBA PNG. */
export function encodePng(rgba: Uint8Array, w: number, h: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  // Each row starts with filter type 0 (none).
  const raw = Buffer.alloc((w * 4 + 1) * h);
  for (let y = 0; y < h; y++) raw.set(rgba.subarray(y * w * 4, (y + 1) * w * 4), y * (w * 4 + 1) + 1);
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw, { level: 1 })), chunk("IEND", new Uint8Array(0))]);
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
    const rgba = pixels(seed, DEMO_WIDTH, DEMO_HEIGHT);
    const png = encodePng(rgba, DEMO_WIDTH, DEMO_HEIGHT);
    const id = s.ids.uuid();
    const storageKey = mediaStorageKey(h.id, id)!;
    const path = join(root, storageKey);
    mkdirSync(dirname(path), { recursive: true });
    mkdirSync(join(root, ".tmp"), { recursive: true });
    const tmp = join(root, ".tmp", id);
    writeFileSync(tmp, png, { mode: 0o600 });
    renameSync(tmp, path);
    // The placeholder from a 96 x 64 picture of the same seed: ThumbHash wants at most 100 x 100.
    const small = pixels(seed, 96, 64);
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
        placeholder: Buffer.from(rgbaToThumbHash(96, 64, small)).toString("base64"),
        storageKey,
        createdAt: now,
        updatedAt: now,
        createdBy: actor,
      })
      .run();
    return { id, alt: "" };
  };
}
