// Media fixtures made by the tests themselves (sharp, or bytes written by hand), so no binary file
// is committed: a 1600 px JPEG, a PNG with alpha, an SVG with a script, an HTML page, a PNG
// decompression bomb with a hand-made IHDR, and a WAV header.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";

/** A fresh temp folder and its removal. */
export function tempDir(prefix = "capa-media-"): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A 1600 x 1067 photo-like JPEG (noise over a gradient, so it weighs like a photo). */
export async function jpeg1600(width = 1600, height = 1067): Promise<Uint8Array<ArrayBuffer>> {
  const gradient = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      gradient[i] = (x * 255) / width;
      gradient[i + 1] = (y * 255) / height;
      gradient[i + 2] = 128;
    }
  }
  const noise = await sharp({ create: { width, height, channels: 3, background: "#000000", noise: { type: "gaussian", mean: 128, sigma: 12 } } })
    .raw()
    .toBuffer();
  return new Uint8Array(
    await sharp(gradient, { raw: { width, height, channels: 3 } })
      .composite([{ input: noise, raw: { width, height, channels: 3 }, blend: "overlay" }])
      .jpeg({ quality: 80 })
      .toBuffer(),
  );
}

/** A 64 x 48 PNG with an alpha channel: left half red, right half half-transparent blue. */
export async function png64(): Promise<Uint8Array<ArrayBuffer>> {
  const w = 64;
  const h = 48;
  const px = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      if (x < w / 2) px.set([255, 0, 0, 255], i);
      else px.set([0, 0, 255, 128], i);
    }
  }
  return new Uint8Array(
    await sharp(px, { raw: { width: w, height: h, channels: 4 } })
      .png()
      .toBuffer(),
  );
}

/** An SVG that would run a script if a browser rendered it inline on our origin. */
export const SVG_WITH_SCRIPT = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 120 80">
  <script>alert(document.cookie)</script>
  <rect width="120" height="80" fill="#3a7"/>
</svg>
`;

/** An HTML page with a script. */
export const HTML_PAGE = `<!DOCTYPE html>
<html><head><title>x</title></head><body><script>fetch('/v2/me').then(r => r.text()).then(alert)</script></body></html>
`;

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, Bun.hash.crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A valid-looking PNG of a few dozen bytes whose IHDR declares `side` x `side` RGB pixels. */
export function pngBomb(side = 50_000): Uint8Array {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, side);
  v.setUint32(4, side);
  ihdr.set([8, 2, 0, 0, 0], 8);
  // One deflated scan line of zeros: the rest of the image is missing, as in a real bomb that
  // relies on the decoder allocating width x height first.
  const idat = Bun.deflateSync(new Uint8Array(1 + side * 3));
  const sig = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
  const parts = [sig, chunk("IHDR", ihdr), chunk("IDAT", new Uint8Array([0x78, 0x9c, ...idat])), chunk("IEND", new Uint8Array())];
  return Buffer.concat(parts);
}

/** A PCM WAV of `seconds` of silence (8 kHz, mono, 8 bit). */
export function wav(seconds = 2): Uint8Array {
  const rate = 8000;
  const n = rate * seconds;
  const out = new Uint8Array(44 + n).fill(128, 44);
  const v = new DataView(out.buffer);
  const ascii = (at: number, s: string) => out.set(new TextEncoder().encode(s), at);
  ascii(0, "RIFF");
  v.setUint32(4, 36 + n, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate, true);
  v.setUint16(32, 1, true);
  v.setUint16(34, 8, true);
  ascii(36, "data");
  v.setUint32(40, n, true);
  return out;
}

/** A multipart/form-data body built by hand, so tests control every byte (names, truncation). */
export function multipart(
  parts: { name: string; filename?: string; type?: string; body: string | Uint8Array }[],
  boundary = "capa-test-boundary",
): {
  body: Uint8Array;
  contentType: string;
} {
  const enc = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += "\r\n";
    if (p.type) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(enc.encode(`${head}\r\n`), typeof p.body === "string" ? enc.encode(p.body) : p.body, enc.encode("\r\n"));
  }
  chunks.push(enc.encode(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A POST Request of a multipart body; `cut` bytes short of it streams only that prefix (truncated). */
export function uploadRequest(mp: { body: Uint8Array; contentType: string }, cut?: number): Request {
  const bytes = cut === undefined ? mp.body : mp.body.subarray(0, mp.body.length - cut);
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      // Several chunks, as a socket would deliver them.
      for (let i = 0; i < bytes.length; i += 16 * 1024) c.enqueue(bytes.subarray(i, i + 16 * 1024));
      c.close();
    },
  });
  return new Request("http://capa.test/v2/media", { method: "POST", headers: { "content-type": mp.contentType }, body: stream });
}
