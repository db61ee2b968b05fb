// The media grid's thumbnails (issue 27, media library): a library of 500 files listed with
// thumbnails=true, then every thumbnail of every file asked for at once, as a grid scrolled to the
// end would: 0 answers that are not 2xx. Thumbnails are exempt from the per-client bucket of new
// variants, which still limits every other new variant.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { answerProblems } from "../openapi/answer-check.ts";

let h: Harness;
let token: string;
let projectId: string;

const as = () => ({ token, headers: { "x-svc-project": projectId } });
const path = (url: string) => new URL(url).pathname + new URL(url).search;

async function tile(i: number): Promise<Uint8Array> {
  const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: i % 256, g: (i * 3) % 256, b: Math.floor(i / 256) * 97 } } })
    .png()
    .toBuffer();
  return new Uint8Array(png);
}

async function uploadMany(from: number, n: number, prefix: string): Promise<void> {
  const files = await Promise.all(Array.from({ length: n }, (_, i) => tile(from + i)));
  for (let i = 0; i < n; i += 50) {
    const fd = new FormData();
    files.slice(i, i + 50).forEach((f, j) => {
      fd.append("file", new Blob([f as BlobPart]), `${prefix}-${from + i + j}.png`);
    });
    const r = await h.json("POST", "/v2/media", { raw: fd, ...as() });
    expect(r.status).toBe(201);
  }
}

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
  await uploadMany(0, 500, "tile");
  const fd = new FormData();
  fd.append("file", new Blob(["Shoot notes\n"]), "notes.txt");
  await h.json("POST", "/v2/media", { raw: fd, ...as() });
});
afterAll(() => h.close());

describe("thumbnails for the grid", () => {
  test("500 files: every page lists its thumbnails, and asking for all 1,000 at once answers 0 non-2xx", async () => {
    const thumbs: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const r = await h.json("GET", `/v2/media?thumbnails=true&limit=100${after ? `&after=${after}` : ""}`, as());
      expect(r.status).toBe(200);
      expect(answerProblems(h.capa, "GET", "/v2/media", 200, r.body)).toEqual([]);
      for (const m of r.body.data) {
        if (m.kind !== "image") {
          expect([m.filename, m.thumbnail]).toEqual(["notes.txt", null]);
          continue;
        }
        const base = m.url as string;
        expect(m.thumbnail).toEqual({ url: `${base}?w=160&fm=webp`, srcset: `${base}?w=160&fm=webp 160w, ${base}?w=320&fm=webp 320w` });
        thumbs.push(`${base}?w=160&fm=webp`, `${base}?w=320&fm=webp`);
      }
      after = r.body.next;
      pages++;
    } while (after);
    expect([pages, thumbs.length]).toEqual([6, 1000]);
    const answers = await Promise.all(thumbs.map((u) => h.req("GET", path(u))));
    const notOk = answers.filter((a) => a.status < 200 || a.status > 299).map((a) => a.status);
    expect(notOk).toEqual([]);
    expect(answers[0]!.headers.get("content-type")).toBe("image/webp");
    const img = await sharp(Buffer.from(await answers[1]!.arrayBuffer())).metadata();
    // A 48 px picture is never enlarged: its 320 px thumbnail is 48 px wide.
    expect([img.format, img.width]).toEqual(["webp", 48]);
  });

  test("thumbnails asked for without a list first are never refused; any other new variant still meets the bucket", async () => {
    await uploadMany(1000, 60, "fresh");
    const fresh = (await h.json("GET", "/v2/media?q=fresh-&limit=100", as())).body.data as { url: string }[];
    expect(fresh).toHaveLength(60);
    const thumbs = await Promise.all(fresh.map((m) => h.req("GET", path(`${m.url}?w=160&fm=webp`))));
    expect(thumbs.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
    const others = await Promise.all(fresh.map((m) => h.req("GET", path(`${m.url}?w=100`))));
    const refused = others.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect((await refused[0]!.json()).error.code).toBe("transform_rate_limited");
  });

  test("thumbnails must be true or false", async () => {
    const r = await h.json("GET", "/v2/media?thumbnails=yes", as());
    expect([r.status, r.body]).toEqual([400, { error: "thumbnails must be true or false", code: "invalid_body", field: "thumbnails" }]);
  });
});
