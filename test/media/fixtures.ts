// Media fixtures made by the tests themselves (sharp, or bytes written by hand), so no binary file
// is committed: a 1600 px JPEG, a PNG with alpha, an SVG with a script, an HTML page, a PNG
// decompression bomb with a hand-made IHDR, a WAV and the header boxes of an MP4.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";

/** A fresh temp folder and its removal. */
export function tempDir(prefix = "capa-media-"): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A 1600 x 1067 photo-like JPEG of about 190 KB: a gradient under noise coarse enough to survive downscaling. */
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
  // Noise made at a quarter of the size and scaled up, so a 400 px variant still has detail to encode.
  const sw = Math.max(1, Math.round(width / 4));
  const sh = Math.max(1, Math.round(height / 4));
  const small = await sharp({ create: { width: sw, height: sh, channels: 3, background: "#000000", noise: { type: "gaussian", mean: 128, sigma: 16 } } })
    .raw()
    .toBuffer();
  const noise = await sharp(small, { raw: { width: sw, height: sh, channels: 3 } })
    .resize(width, height, { kernel: "cubic", fit: "fill" })
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

function box(type: string, ...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(8 + parts.reduce((n, p) => n + p.length, 0));
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(new TextEncoder().encode(type), 4);
  let at = 8;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The header boxes of an MP4 (ftyp, and moov with one AAC audio track) lasting `seconds`; no samples. */
export function mp4Header(seconds = 3.5): Uint8Array {
  const units = Math.round(seconds * 1000);
  const ftyp = box("ftyp", new TextEncoder().encode("isom"), new Uint8Array([0, 0, 2, 0]), new TextEncoder().encode("isomiso2mp41"));
  const mvhd = new Uint8Array(100);
  const mv = new DataView(mvhd.buffer);
  mv.setUint32(12, 1000);
  mv.setUint32(16, units);
  mv.setUint32(20, 0x00010000);
  mv.setUint16(24, 0x0100);
  mv.setUint32(96, 2);
  const tkhd = new Uint8Array(84);
  const tk = new DataView(tkhd.buffer);
  tk.setUint32(0, 3);
  tk.setUint32(12, 1);
  tk.setUint32(20, units);
  tk.setUint32(76, 320 << 16);
  tk.setUint32(80, 240 << 16);
  const mdhd = new Uint8Array(24);
  const md = new DataView(mdhd.buffer);
  md.setUint32(12, 1000);
  md.setUint32(16, units);
  md.setUint16(20, 0x55c4);
  const hdlr = new Uint8Array(25);
  hdlr.set(new TextEncoder().encode("soun"), 8);
  // One AAC sample description (mono, 16 bit, 44.1 kHz), so readers know what the track holds.
  const mp4a = new Uint8Array(28);
  const ma = new DataView(mp4a.buffer);
  ma.setUint16(6, 1);
  ma.setUint16(16, 1);
  ma.setUint16(18, 16);
  ma.setUint32(24, 44100 << 16);
  const stsdBody = new Uint8Array(8);
  new DataView(stsdBody.buffer).setUint32(4, 1);
  const stsd = box("stsd", stsdBody, box("mp4a", mp4a));
  const stbl = box("stbl", stsd, box("stts", new Uint8Array(8)), box("stsc", new Uint8Array(8)), box("stsz", new Uint8Array(12)));
  const mdia = box("mdia", box("mdhd", mdhd), box("hdlr", hdlr), box("minf", stbl));
  return Buffer.concat([ftyp, box("moov", box("mvhd", mvhd), box("trak", box("tkhd", tkhd), mdia))]);
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
