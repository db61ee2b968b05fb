// The public file URL behind a real Bun.serve: originals (local and S3) with strong ETags, 304,
// HEAD, byte ranges and immutable caching; the attachment + sandbox rule; transforms with
// Accept negotiation served from the variant cache. The route around serveMedia is the smallest
// one possible (a map of records); errors render in the /api envelope as the app will.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import S3rver from "s3rver";
import sharp from "sharp";
import { AppError, apiErrorObject } from "../../src/errors.ts";
import { contentDisposition } from "../../src/domain/media/filename.ts";
import { serveMedia } from "../../src/domain/media/serve.ts";
import { sniffFile } from "../../src/domain/media/sniff.ts";
import type { ServableMedia } from "../../src/domain/media/types.ts";
import { VariantService } from "../../src/domain/media/variants.ts";
import { ManualClock } from "../../src/infra/clock.ts";
import { type MediaStore, openLocalStore, openS3Store } from "../../src/infra/media-store/index.ts";
import { VariantCache } from "../../src/infra/variant-cache.ts";
import { HTML_PAGE, SVG_WITH_SCRIPT, jpeg1600, tempDir, wav } from "./fixtures.ts";

let tmp: ReturnType<typeof tempDir>;
let s3: S3rver;
let server: ReturnType<typeof Bun.serve>;
let variants: VariantService;
const stores: Record<string, MediaStore> = {};
const records = new Map<string, ServableMedia>();
const bytesOf = new Map<string, Uint8Array<ArrayBuffer>>();
let base = "";

async function add(storeName: string, id: string, filename: string, bytes: Uint8Array | string): Promise<void> {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  const path = join(tmp.dir, `${id}.src`);
  await Bun.write(path, data);
  const sniffed = await sniffFile(path);
  const storageKey = `proj/${id}`;
  await stores[storeName]!.put(storageKey, { path });
  const meta = sniffed.mimeType === "image/jpeg" ? await sharp(data).metadata() : null;
  records.set(`${storeName}/${id}`, {
    id,
    filename,
    ...sniffed,
    size: data.byteLength,
    width: meta?.width ?? null,
    height: meta?.height ?? null,
    checksum: new Bun.CryptoHasher("sha256").update(data).digest("hex"),
    focalPoint: null,
    storageKey,
  });
  bytesOf.set(`${storeName}/${id}`, data as Uint8Array<ArrayBuffer>);
}

beforeAll(async () => {
  tmp = tempDir();
  stores.local = await openLocalStore(join(tmp.dir, "media"));
  s3 = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: join(tmp.dir, "s3"), configureBuckets: [{ name: "capa-media", configs: [] }] });
  const { port } = (await s3.run()) as unknown as { port: number };
  stores.s3 = openS3Store({ bucket: "capa-media", prefix: "files", endpoint: `http://127.0.0.1:${port}`, accessKeyId: "S3RVER", secretAccessKey: "S3RVER" });
  const photo = await jpeg1600();
  // Different ids, so the S3 photo's variants are rendered from S3 rather than found in the cache.
  await add("local", "photo", "photo.jpg", photo);
  await add("s3", "photo-s3", "photo.jpg", photo);
  await add("local", "logo", "logo.svg", SVG_WITH_SCRIPT);
  await add("local", "page", "page.jpg", HTML_PAGE);
  await add("local", "blob", "data.bin", new Uint8Array(3000).map((_, i) => (i * 13) % 256 || 1).fill(0, 7, 8));
  await add("local", "tone", "tone.wav", wav(1));
  await add("local", "notes", "notes.txt", "plain words\n");
  records.set("local/gone", { ...records.get("local/notes")!, id: "gone", storageKey: "proj/gone" });
  variants = new VariantService({ cache: await VariantCache.open(join(tmp.dir, "variants"), 50_000_000), clock: new ManualClock(0), maxPixels: 1e8 });
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const [, , storeName, id] = new URL(request.url).pathname.split("/");
      const media = records.get(`${storeName}/${id}`);
      if (!media) return new Response(null, { status: 404 });
      try {
        return await serveMedia(request, media, stores[storeName!]!, { variants, client: "test" });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return new Response(JSON.stringify({ error: apiErrorObject(err, "https://capa.test") }), {
          status: err.status,
          headers: { "content-type": "application/json", ...err.headers },
        });
      }
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  server?.stop(true);
  await s3?.close();
  tmp?.remove();
});

const get = (path: string, headers: Record<string, string> = {}, method = "GET") => fetch(`${base}${path}`, { method, headers });
const headersOf = (r: Response) => Object.fromEntries([...r.headers].filter(([k]) => k !== "date"));

for (const storeName of ["local", "s3"]) {
  describe(`an original from the ${storeName} store`, () => {
    const id = storeName === "s3" ? "photo-s3" : "photo";
    const url = `/media/${storeName}/${id}/photo.jpg`;
    const key = `${storeName}/${id}`;
    // Bun.serve drops a Content-Length set on a streamed body (oven-sh/bun#10507) and sends it
    // chunked; local files go by sendfile with their length.
    const length = (n: number): Record<string, string> => (storeName === "s3" ? { "transfer-encoding": "chunked" } : { "content-length": String(n) });

    test("GET: the bytes, immutable caching, a strong ETag from the checksum, nosniff, inline", async () => {
      const m = records.get(key)!;
      const r = await get(url);
      expect(r.status).toBe(200);
      expect(headersOf(r)).toEqual({
        "accept-ranges": "bytes",
        "access-control-allow-origin": "*",
        "cache-control": "public, max-age=31536000, immutable",
        "content-disposition": `inline; filename="photo.jpg"; filename*=UTF-8''photo.jpg`,
        ...length(m.size),
        "content-type": "image/jpeg",
        etag: `"${m.checksum}"`,
        "x-content-type-options": "nosniff",
      });
      expect(new Uint8Array(await r.arrayBuffer())).toEqual(bytesOf.get(key)!);
    });

    test("If-None-Match with the ETag (strong, weak or in a list): 304 without a body", async () => {
      const etag = `"${records.get(key)!.checksum}"`;
      for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
        const r = await get(url, { "if-none-match": inm });
        expect(r.status).toBe(304);
        expect(r.headers.get("etag")).toBe(etag);
        expect(r.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        expect(await r.text()).toBe("");
      }
      expect((await get(url, { "if-none-match": '"other"' })).status).toBe(200);
    });

    test("HEAD: the GET's status and headers, no body", async () => {
      const r = await get(url, {}, "HEAD");
      expect(r.status).toBe(200);
      expect(r.headers.get("content-length")).toBe(String(records.get(key)!.size));
      expect(r.headers.get("etag")).toBe(`"${records.get(key)!.checksum}"`);
      expect(await r.text()).toBe("");
    });

    test("Range: 206 with Content-Range and exactly those bytes", async () => {
      const all = bytesOf.get(key)!;
      const size = all.byteLength;
      const cases: [string, number, number][] = [
        ["bytes=0-99", 0, 99],
        ["bytes=0-0", 0, 0],
        ["bytes=1000-", 1000, size - 1],
        ["bytes=-10", size - 10, size - 1],
        [`bytes=100-${size + 500}`, 100, size - 1],
      ];
      for (const [range, start, end] of cases) {
        const r = await get(url, { range });
        expect(r.status).toBe(206);
        expect(r.headers.get("content-range")).toBe(`bytes ${start}-${end}/${size}`);
        // From S3 a range that arrives whole before the answer starts does get its length.
        const expected = storeName === "s3" ? [null, String(end - start + 1)] : [String(end - start + 1)];
        expect(expected).toContain(r.headers.get("content-length"));
        expect(new Uint8Array(await r.arrayBuffer())).toEqual(all.subarray(start, end + 1));
      }
    });

    test("a range past the end: 416 range_not_satisfiable with Content-Range bytes */size", async () => {
      const size = records.get(key)!.size;
      const r = await get(url, { range: `bytes=${size}-` });
      expect(r.status).toBe(416);
      expect(r.headers.get("content-range")).toBe(`bytes */${size}`);
      expect(await r.json()).toEqual({
        error: {
          type: "invalid_request",
          code: "range_not_satisfiable",
          message: `The range is outside the file's ${size} bytes.`,
          hint: "Ask for a range within the size in the Content-Range header.",
          docs: "https://capa.test/docs/errors/range_not_satisfiable",
        },
      });
    });

    test("several ranges, a malformed range or a stale If-Range: the whole file", async () => {
      const cases: Record<string, string>[] = [
        { range: "bytes=0-1,5-6" },
        { range: "lines=1-2" },
        { range: "bytes=9-3" },
        { range: "bytes=0-9", "if-range": '"stale"' },
      ];
      for (const headers of cases) {
        const r = await get(url, headers);
        expect(r.status).toBe(200);
        expect((await r.arrayBuffer()).byteLength).toBe(records.get(key)!.size);
      }
      const ok = await get(url, { range: "bytes=0-9", "if-range": `"${records.get(key)!.checksum}"` });
      expect(ok.status).toBe(206);
    });

    test("a transform renders from this store: ?w=400&fm=webp", async () => {
      const before = variants.renders;
      const r = await get(`${url}?w=400&fm=webp`);
      expect(r.status).toBe(200);
      expect(variants.renders).toBe(before + 1);
      expect(r.headers.get("content-type")).toBe("image/webp");
      const meta = await sharp(new Uint8Array(await r.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["webp", 400, 267]);
    });
  });
}

describe("kinds that must never run on our origin", () => {
  const cases: [string, string, string][] = [
    ["logo", "logo.svg", "image/svg+xml"],
    ["page", "page.jpg", "text/html"],
    ["blob", "data.bin", "application/octet-stream"],
  ];
  for (const [id, filename, type] of cases) {
    test(`${filename} (${type}): attachment with Content-Security-Policy: sandbox`, async () => {
      const r = await get(`/media/local/${id}/${filename}`);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe(type);
      expect(r.headers.get("content-disposition")).toBe(contentDisposition("attachment", filename));
      expect(r.headers.get("content-security-policy")).toBe("sandbox");
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      expect(new Uint8Array(await r.arrayBuffer())).toEqual(bytesOf.get(`local/${id}`)!);
    });
  }

  test("audio and plain text are inline without a sandbox; audio takes ranges", async () => {
    const a = await get("/media/local/tone/tone.wav", { range: "bytes=0-43" });
    expect([a.status, a.headers.get("content-type"), a.headers.get("content-security-policy")]).toEqual([206, "audio/wav", null]);
    expect(new TextDecoder().decode((await a.arrayBuffer()).slice(0, 4))).toBe("RIFF");
    const t = await get("/media/local/notes/notes.txt");
    expect([t.headers.get("content-type"), t.headers.get("content-disposition")]).toEqual([
      "text/plain; charset=utf-8",
      contentDisposition("inline", "notes.txt"),
    ]);
  });

  test("a transform of an SVG: 400 invalid_transform naming the first parameter", async () => {
    const r = await get("/media/local/logo/logo.svg?w=100");
    expect(r.status).toBe(400);
    expect((await r.json()).error).toEqual({
      type: "invalid_request",
      code: "invalid_transform",
      message: "Transforms apply to raster images only; this file is image/svg+xml.",
      param: "w",
      hint: "Example: ?w=800&fm=auto (w and h 1-4096, fit cover|contain|inside|outside|fill, fm jpg|png|webp|avif|auto, q 1-100, dpr 1-3).",
      docs: "https://capa.test/docs/errors/invalid_transform",
    });
  });

  test("bytes missing from the store: 404 not_found", async () => {
    const r = await get("/media/local/gone/notes.txt");
    expect(r.status).toBe(404);
    expect((await r.json()).error).toMatchObject({ code: "not_found", message: "The file's bytes are missing from the media store." });
  });
});

describe("transforms on the file URL", () => {
  const url = "/media/local/photo/photo.jpg";

  test("a variant is served like an original, rendered once, and revalidates without a render", async () => {
    const before = variants.renders;
    const r1 = await get(`${url}?w=300&h=300&fm=png`);
    expect(r1.status).toBe(200);
    const etag = r1.headers.get("etag")!;
    expect(headersOf(r1)).toEqual({
      "accept-ranges": "bytes",
      "access-control-allow-origin": "*",
      "cache-control": "public, max-age=31536000, immutable",
      "content-disposition": contentDisposition("inline", "photo.png"),
      "content-length": r1.headers.get("content-length")!,
      "content-type": "image/png",
      etag,
      "x-content-type-options": "nosniff",
    });
    expect(etag).toBe(`"${records.get("local/photo")!.checksum.slice(0, 32)}-w300_h300_cover_png"`);
    const meta = await sharp(new Uint8Array(await r1.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([300, 300]);
    const r2 = await get(`${url}?fm=png&h=300&w=300`);
    expect(r2.headers.get("etag")).toBe(etag);
    await r2.arrayBuffer();
    const r3 = await get(`${url}?w=300&h=300&fm=png`, { "if-none-match": etag });
    expect(r3.status).toBe(304);
    expect(variants.renders).toBe(before + 1);
  });

  test("fm=auto answers by Accept with Vary: Accept", async () => {
    const avif = await get(`${url}?w=120&fm=auto`, { accept: "image/avif,image/webp,*/*" });
    expect([avif.status, avif.headers.get("content-type"), avif.headers.get("vary")]).toEqual([200, "image/avif", "Accept"]);
    await avif.arrayBuffer();
    const plain = await get(`${url}?w=120&fm=auto`, { accept: "*/*" });
    expect([plain.headers.get("content-type"), plain.headers.get("vary")]).toEqual(["image/jpeg", "Accept"]);
    expect(plain.headers.get("etag")).not.toBe(avif.headers.get("etag"));
    await plain.arrayBuffer();
    const fixed = await get(`${url}?w=120&fm=webp`, { accept: "image/avif" });
    expect([fixed.headers.get("content-type"), fixed.headers.get("vary")]).toEqual(["image/webp", null]);
    await fixed.arrayBuffer();
  });

  test("w=0, w=99999, fm=gif and an unknown parameter: 400 invalid_transform naming each", async () => {
    for (const [q, param] of [
      ["w=0", "w"],
      ["w=99999", "w"],
      ["fm=gif", "fm"],
      ["w=10&crop=1", "crop"],
    ]) {
      const r = await get(`${url}?${q}`);
      expect(r.status).toBe(400);
      const body = await r.json();
      expect([body.error.code, body.error.param]).toEqual(["invalid_transform", param]);
    }
  });
});
