// Issue 24, item 1, through the real app: every image kind sharp reads, declaring sizes at and just
// under CAPA_MEDIA_MAX_PIXELS, cut short, with thousands of frames, an SVG <use> bomb and a zTXt zip
// bomb. Each gets a clear answer within 2 s: 201 (a file decoded whole is stored without a
// placeholder rather than decoded at upload) or a 400 naming the reason and the limit. A refused
// upload leaves no record and no bytes. The memory these take is measured in a spawned server
// (decode-memory.test.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { MEDIA_DEFAULTS } from "../../src/domain/media/settings.ts";
import { type Harness, startApp, withOwner } from "../harness.ts";
import {
  animatedWebp,
  apng,
  avifDeclaring,
  gifBomb,
  gifFrames,
  jpegDeclaring,
  pngChunk,
  pngDeclaring,
  pngZtxtBomb,
  svgUseBomb,
  tiffDeclaring,
  webpDeclaring,
} from "./bombs.ts";

const GIB = 1024 ** 3;
/** Two apps: a 1 GiB decode budget (one decode: 536,870,912 bytes) and a 256 MiB one (134,217,728). */
let big: Harness;
let small: Harness;
const owners = new Map<Harness, { token: string; projectId: string }>();
let jpeg64: Uint8Array;
let progressive64: Uint8Array;
let avif64: Uint8Array;

beforeAll(async () => {
  big = startApp({ media: { ...MEDIA_DEFAULTS, decodeBudget: GIB, renderSlots: 2 } });
  small = startApp({ media: { ...MEDIA_DEFAULTS, decodeBudget: GIB / 4, renderSlots: 2 } });
  for (const h of [big, small]) {
    const o = await withOwner(h);
    owners.set(h, { token: o.token, projectId: o.project.id });
  }
  const grey = () => sharp({ create: { width: 64, height: 64, channels: 3, background: "#808080" } });
  jpeg64 = new Uint8Array(await grey().jpeg().toBuffer());
  progressive64 = new Uint8Array(await grey().jpeg({ progressive: true }).toBuffer());
  avif64 = new Uint8Array(await grey().avif({ effort: 0 }).toBuffer());
});
afterAll(() => {
  big.close();
  small.close();
});

async function upload(h: Harness, name: string, bytes: Uint8Array | string) {
  const { token, projectId } = owners.get(h)!;
  const fd = new FormData();
  fd.append("file", new Blob([bytes as BlobPart]), name);
  const t0 = performance.now();
  const r = await h.json("POST", "/v2/media", { raw: fd, token, headers: { "x-svc-project": projectId } });
  return { ...r, ms: performance.now() - t0 };
}

/** The media records and stored files of an app's project. */
function kept(h: Harness): { records: number; files: string[] } {
  const { projectId } = owners.get(h)!;
  const records = h.capa.services.projects.get(projectId).sqlite.query("SELECT count(*) AS n FROM media").get() as { n: number };
  const dir = join(h.dir, "media", projectId);
  return { records: records.n, files: existsSync(dir) ? readdirSync(dir) : [] };
}

/** A whole 10,000 x 10,000 RGBA PNG of zeros (500 KB deflated; 1.2 GB once librsvg decodes it). */
function pngWhole(side: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, side);
  v.setUint32(4, side);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const idat = deflateSync(Buffer.alloc((1 + side * 4) * side), { level: 9 });
  return Buffer.concat([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), pngChunk("IHDR", ihdr), pngChunk("IDAT", idat), pngChunk("IEND", new Uint8Array())]);
}

const unreadable = (mime: string) => ({ error: `File part 1 ("f") is marked as ${mime} but cannot be decoded.`, code: "image_unreadable", field: "file" });

describe("files decoded whole: stored without a placeholder, or refused over what one decode may use", () => {
  // [name, bytes, { width, height, mimeType }] of files answered 201 with no placeholder by the 1 GiB app.
  const stored: [string, () => Uint8Array, { mimeType: string; width: number; height: number }][] = [
    ["the 35-byte GIF of 10,000 x 10,000 with cut LZW data", () => gifBomb(), { mimeType: "image/gif", width: 10000, height: 10000 }],
    ["a GIF of 9,999 x 10,000", () => gifBomb(9999, 10000), { mimeType: "image/gif", width: 9999, height: 10000 }],
    [
      "a cut progressive JPEG declaring 10,000 x 10,000",
      () => jpegDeclaring(progressive64, 10000, 10000),
      { mimeType: "image/jpeg", width: 10000, height: 10000 },
    ],
    [
      "a cut progressive JPEG declaring 9,999 x 10,000",
      () => jpegDeclaring(progressive64, 9999, 10000),
      { mimeType: "image/jpeg", width: 9999, height: 10000 },
    ],
    [
      "a cut interlaced PNG declaring 10,000 x 10,000 RGBA",
      () => pngDeclaring(10000, 10000, { interlace: true }),
      { mimeType: "image/png", width: 10000, height: 10000 },
    ],
    ["an AVIF declaring 5,000 x 5,000", () => avifDeclaring(avif64, 5000, 5000), { mimeType: "image/avif", width: 5000, height: 5000 }],
    ["a TIFF declaring 10,000 x 10,000 without its strip", () => tiffDeclaring(10000, 10000), { mimeType: "image/tiff", width: 10000, height: 10000 }],
    [
      "an animated WebP of a 4,000 x 4,000 canvas with 3,000 frames",
      () => animatedWebp(4000, 4000, 3000),
      { mimeType: "image/webp", width: 4000, height: 4000 },
    ],
  ];
  for (const [name, bytes, facts] of stored) {
    test(`${name}: 201 within 2 s, its size and no placeholder`, async () => {
      const r = await upload(big, "f", bytes());
      expect([r.status, r.body.kind, r.body.mimeType, r.body.width, r.body.height, r.body.placeholder]).toEqual([
        201,
        "image",
        facts.mimeType,
        facts.width,
        facts.height,
        null,
      ]);
      expect(r.ms).toBeLessThan(2000);
    });
  }

  const refused: [string, () => Uint8Array, "big" | "small", string, number][] = [
    [
      "the 35-byte GIF with a 256 MiB budget",
      () => gifBomb(),
      "small",
      'File part 1 ("f") is a GIF of 10000 x 10000 pixels, which is decoded whole (about 509588608 bytes); one decode may use 134217728 bytes on this server (half of CAPA_MEDIA_DECODE_BUDGET), so the limit for such a file is 16584248 pixels.',
      16584248,
    ],
    [
      "an AVIF declaring 10,000 x 10,000",
      () => avifDeclaring(avif64, 10000, 10000),
      "big",
      'File part 1 ("f") is an AVIF of 10000 x 10000 pixels, which is decoded whole (about 1959588608 bytes); one decode may use 536870912 bytes on this server (half of CAPA_MEDIA_DECODE_BUDGET), so the limit for such a file is 25120121 pixels.',
      25120121,
    ],
    [
      "an animated WebP of a 10,000 x 10,000 canvas with 5,000 frames of 1 x 1",
      () => animatedWebp(10000, 10000, 5000),
      "big",
      'File part 1 ("f") is an animated WebP of 10000 x 10000 pixels, which is decoded whole (about 539588608 bytes); one decode may use 536870912 bytes on this server (half of CAPA_MEDIA_DECODE_BUDGET), so the limit for such a file is 99433813 pixels.',
      99433813,
    ],
  ];
  for (const [name, bytes, which, error, limit] of refused) {
    test(`${name}: 400 image_too_large naming the limit, before decoding; nothing kept`, async () => {
      const h = which === "big" ? big : small;
      const before = kept(h);
      const r = await upload(h, "f", bytes());
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error, code: "image_too_large", field: "file", limit });
      expect(r.ms).toBeLessThan(2000);
      expect(kept(h)).toEqual(before);
    });
  }
});

describe("files that stream, cut short, or with many frames", () => {
  // [name, bytes, expected]: `placeholder: true` means a ThumbHash is made.
  const cases: [
    string,
    () => Uint8Array,
    { status: 201; mimeType: string; width: number | null; height: number | null; placeholder: boolean } | { status: 400; body: unknown },
  ][] = [
    ["a baseline JPEG declaring 10,000 x 10,000, cut short", () => jpegDeclaring(jpeg64, 10000, 10000, 300), { status: 400, body: unreadable("image/jpeg") }],
    ["a PNG declaring 10,000 x 10,000 with one row of data", () => pngDeclaring(10000, 10000), { status: 400, body: unreadable("image/png") }],
    ["a PNG declaring 9,999 x 10,000 with one row of data", () => pngDeclaring(9999, 10000), { status: 400, body: unreadable("image/png") }],
    ["a WebP whose canvas says 10,000 x 10,000 around a 1 x 1 image", () => webpDeclaring(10000, 10000), { status: 400, body: unreadable("image/webp") }],
    [
      "a GIF of 20,000 frames on a 100 x 100 screen",
      () => gifFrames(100, 100, 20000),
      { status: 201, mimeType: "image/gif", width: 100, height: 100, placeholder: true },
    ],
    [
      "an animated WebP of 5,000 frames on a 100 x 100 canvas",
      () => animatedWebp(100, 100, 5000),
      { status: 201, mimeType: "image/webp", width: 100, height: 100, placeholder: true },
    ],
    [
      "an APNG of 5,000 frames (stored as a file sharp does not read)",
      () => apng(5000),
      { status: 201, mimeType: "image/apng", width: null, height: null, placeholder: false },
    ],
    ["a PNG whose zTXt inflates to 1 GiB", () => pngZtxtBomb(), { status: 201, mimeType: "image/png", width: 16, height: 16, placeholder: true }],
    [
      "a HEIC (not decoded here)",
      () =>
        Buffer.concat([
          new Uint8Array([0, 0, 0, 24]),
          new TextEncoder().encode("ftypheic"),
          new Uint8Array(4),
          new TextEncoder().encode("mif1heic"),
          new Uint8Array(64),
        ]),
      { status: 201, mimeType: "image/heic", width: null, height: null, placeholder: false },
    ],
  ];
  for (const [name, bytes, want] of cases) {
    test(`${name}: ${want.status} within 2 s`, async () => {
      const before = kept(big);
      const r = await upload(big, "f", bytes());
      expect(r.ms).toBeLessThan(2000);
      if (want.status === 400) {
        expect([r.status, r.body]).toEqual([400, want.body]);
        expect(kept(big)).toEqual(before);
      } else {
        expect([r.status, r.body.mimeType, r.body.width, r.body.height, r.body.placeholder !== null]).toEqual([
          201,
          want.mimeType,
          want.width,
          want.height,
          want.placeholder,
        ]);
      }
    });
  }

  test("over CAPA_MEDIA_MAX_PIXELS by one row: 400 image_too_large with the pixel limit", async () => {
    const r = await upload(big, "f", gifBomb(10000, 10001));
    expect([r.status, r.body]).toEqual([
      400,
      {
        error: 'File part 1 ("f") declares more pixels (10000 x 10001 = 100010000 pixels) than the limit of 100000000.',
        code: "image_too_large",
        field: "file",
        limit: 100000000,
      },
    ]);
  });
});

describe("SVGs that would cost too much to draw: 400 image_too_complex within 1 s, nothing kept", () => {
  const cases: [string, () => string, string, number][] = [
    [
      "<use> references eight levels deep, ten to a level (10^8 rectangles from 2 KB)",
      () => svgUseBomb(8, 10),
      'File part 1 ("f") would draw more than 50000 elements once its references are followed.',
      50000,
    ],
    [
      "an <image> holding a 10,000 x 10,000 PNG in a data: URL",
      () =>
        `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><image width="100" height="100" href="data:image/png;base64,${Buffer.from(pngWhole(10000)).toString("base64")}"/></svg>`,
      'File part 1 ("f") embeds raster images of more than 4000000 pixels together.',
      4000000,
    ],
    [
      "a path of 1,000 points drawn 1,001 times through <use> (few elements, a million points)",
      () => {
        const d = `M0 0 ${Array.from({ length: 999 }, (_, i) => `L${i % 100} ${(i * 7) % 100}`).join(" ")}`;
        return `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><defs><path id="p" d="${d}"/></defs>${'<use href="#p"/>'.repeat(1001)}</svg>`;
      },
      'File part 1 ("f") would draw more than 1000000 path points once its references are followed.',
      1000000,
    ],
    [
      "XML entities (a billion laughs)",
      () =>
        `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>`,
      'File part 1 ("f") declares XML entities, which are not accepted in an SVG.',
      0,
    ],
  ];
  for (const [name, svg, error, limit] of cases) {
    test(name, async () => {
      const before = kept(big);
      const r = await upload(big, "f", svg());
      expect(r.ms).toBeLessThan(1000);
      expect([r.status, r.body]).toEqual([400, { error, code: "image_too_complex", field: "file", limit }]);
      expect(kept(big)).toEqual(before);
    });
  }

  test("an SVG of 2,000 shapes and a few <use>s is drawn and gets a placeholder", async () => {
    const shapes = Array.from({ length: 2000 }, (_, i) => `<rect x="${i % 100}" y="${Math.floor(i / 100)}" width="1" height="1" fill="#3a7"/>`).join("");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20"><defs><g id="row">${shapes}</g></defs><use href="#row"/><use href="#row" y="10"/></svg>`;
    const r = await upload(big, "f", svg);
    expect([r.status, r.body.mimeType, r.body.width, r.body.height, typeof r.body.placeholder]).toEqual([201, "image/svg+xml", 100, 20, "string"]);
  });
});

describe("renders under the budget", () => {
  test("a variant whose render would hold more than one decode may: 400 image_too_large in the /api envelope, nothing rendered", async () => {
    // A 3,000 x 3,000 GIF decodes into 64 MB, within the 128 MiB one decode may hold with a 256 MiB
    // budget; a 3,000 px AVIF of it adds the encoder's 23 bytes a pixel (207 MB): 271 MB in all.
    const up = await upload(small, "wide.gif", gifBomb(3000, 3000));
    expect([up.status, up.body.placeholder]).toEqual([201, null]);
    const { projectId } = owners.get(small)!;
    const r = await small.json("GET", `/media/${projectId}/${up.body.id}/wide.gif?w=3000&fm=avif`);
    expect([r.status, r.body]).toEqual([
      400,
      {
        error: {
          type: "invalid_request",
          code: "image_too_large",
          message:
            "This variant of a 3000 x 3000 image needs about 271248608 bytes of memory; one render may use 134217728 bytes on this server (half of CAPA_MEDIA_DECODE_BUDGET).",
          hint: "Ask for a smaller w or h, or another fm (AVIF takes the most memory to encode, PNG the least).",
          docs: "http://capa.test/docs/errors/image_too_large",
        },
        meta: { version: "2026-10-01", contract: 1, requestId: expect.any(String) },
      },
    ]);
    // A small WebP of the same file fits, and renders.
    const ok = await small.req("GET", `/media/${projectId}/${up.body.id}/wide.gif?w=300&fm=webp`);
    expect([ok.status, ok.headers.get("content-type")]).toEqual([200, "image/webp"]);
  });
});
