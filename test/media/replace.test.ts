// Replacing a file (decisions.md 15: PUT /v2/media/:id/file) and uploads of bytes the library
// holds already (issue 27, media library): same id, new checksum and URL, references follow,
// media.updated fires; a non-image is refused while an image field uses the file, naming the
// entries; a duplicate upload is 409 duplicate_file offering the existing file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { memberToken } from "../api/helpers.ts";
import { answerProblems } from "../openapi/answer-check.ts";
import { png64 } from "./fixtures.ts";

let h: Harness;
let token: string;
let projectId: string;
let userId: string;
let png: Uint8Array;

const as = (t = token) => ({ token: t, headers: { "x-svc-project": projectId } });
const path = (url: string) => new URL(url).pathname + new URL(url).search;

function form(files: [string, Uint8Array | string][], fields: Record<string, string> = {}): FormData {
  const fd = new FormData();
  for (const [name, bytes] of files) fd.append("file", new Blob([bytes as BlobPart]), name);
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}
const upload = (fd: FormData, query = "") => h.json("POST", `/v2/media${query}`, { raw: fd, ...as() });
const replace = (id: string, fd: FormData, t = token) => h.json("PUT", `/v2/media/${id}/file`, { raw: fd, ...as(t) });
const events = (type: string) =>
  (h.capa.services.projects.get(projectId).sqlite.query("SELECT body FROM events WHERE type = ? ORDER BY seq").all(type) as { body: string }[]).map((r) =>
    JSON.parse(r.body),
  );

async function colourPng(r: number, g: number, b: number, width = 40, height = 30): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
      .png()
      .toBuffer(),
  );
}

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
  userId = o.user.id;
  png = await png64();
  await h.json("POST", "/v2/models", {
    ...as(),
    body: {
      name: "Post",
      namespace: "post",
      fields: [
        { namespace: "title", type: "string" },
        { namespace: "hero", type: "image" },
        { namespace: "gallery", type: "array", arrayType: "image" },
        { namespace: "attachment", type: "file" },
      ],
    },
  });
});
afterAll(() => h.close());

describe("PUT /v2/media/:id/file", () => {
  test("same id, the new file's name and facts, a new checksum and URL; the old URL is gone; references follow; media.updated", async () => {
    const first = (await upload(form([["hero.png", png]], { alt: "A dot", title: "Dot" }))).body;
    const entry = (await h.json("POST", "/v2/model-instances", { ...as(), body: { model: "post", data: { title: "Hello", hero: { id: first.id } } } })).body;
    await h.json("POST", `/v2/model-instances/${entry.id}/publish`, as());
    const key = (await h.json("POST", "/v2/tenants/api-keys", { ...as(), body: { scopes: ["instance:read"] } })).body.apiKey;
    const before = await h.json("GET", `/api/entries/post/${entry.id}`, { headers: { "x-api-key": key } });
    expect(before.body.data.hero.url).toBe(first.url);

    h.clock.advance(60_000);
    const bigger = await colourPng(200, 40, 40, 120, 80);
    const r = await replace(first.id, form([["hero-v2.png", bigger]]));
    expect(r.status).toBe(200);
    const checksum = new Bun.CryptoHasher("sha256").update(bigger).digest("hex");
    expect(r.body).toEqual({
      ...first,
      filename: "hero-v2.png",
      size: bigger.byteLength,
      width: 120,
      height: 80,
      checksum,
      placeholder: r.body.placeholder,
      url: first.url.replace(`/${first.id}/hero.png`, `/${first.id}_1/hero-v2.png`),
      updatedAt: "2026-11-21T12:01:00.000Z",
    });
    expect(r.body.placeholder).not.toBe(first.placeholder);
    expect(answerProblems(h.capa, "PUT", `/v2/media/${first.id}/file`, 200, r.body)).toEqual([]);
    // The old URL answers 404; the new one serves the new bytes.
    expect((await h.req("GET", path(first.url))).status).toBe(404);
    const served = await h.req("GET", path(r.body.url));
    expect([served.status, new Uint8Array(await served.arrayBuffer())]).toEqual([200, bigger]);
    // The entry's reference follows: its read has the new URL and size, without a new save.
    const after = await h.json("GET", `/api/entries/post/${entry.id}`, { headers: { "x-api-key": key } });
    expect(after.body.data.hero).toEqual({ id: first.id, url: r.body.url, alt: "A dot", type: "image", width: 120, height: 80 });
    const [ev] = events("media.updated");
    expect(ev.data).toEqual({ mediaId: first.id, filename: "hero-v2.png", kind: "image", size: bigger.byteLength, folder: null });
    expect(ev.actor).toEqual({ kind: "user", id: userId });
    // A second replace makes revision 2; the same bytes again change nothing (no event, same URL).
    const third = await replace(first.id, form([["hero-v3.png", await colourPng(1, 2, 3)]]));
    expect(third.body.url).toBe(first.url.replace(`/${first.id}/hero.png`, `/${first.id}_2/hero-v3.png`));
    const again = await replace(first.id, form([["hero-v3.png", await colourPng(1, 2, 3)]]));
    expect(again.body).toEqual(third.body);
    expect(events("media.updated")).toHaveLength(2);
  });

  test("a file of another kind is refused while an image field uses it, naming the entries; nothing changes", async () => {
    const img = (await upload(form([["cover.png", await colourPng(9, 9, 9)]]))).body;
    const a = (await h.json("POST", "/v2/model-instances", { ...as(), body: { model: "post", data: { title: "Uses hero", hero: { id: img.id } } } })).body;
    const b = (await h.json("POST", "/v2/model-instances", { ...as(), body: { model: "post", data: { title: "In a gallery", gallery: [{ id: img.id }] } } }))
      .body;
    const pdf = "%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n";
    const r = await replace(img.id, form([["cover.pdf", pdf]]));
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      error:
        "cover.png is used by an image field of 2 entries (Uses hero, In a gallery), so it can only be replaced by an image; this file is pdf (application/pdf).",
      code: "file_kind_in_use",
      kind: "pdf",
      entries: [
        { id: a.id, modelId: a.modelId, namespace: "post", title: "Uses hero", copies: ["draft"] },
        { id: b.id, modelId: b.modelId, namespace: "post", title: "In a gallery", copies: ["draft"] },
      ],
    });
    expect((await h.json("GET", `/v2/media/${img.id}`, as())).body).toEqual(img);
    // A file field takes any kind: once only a file field uses it, a PDF may replace it.
    const doc = (await upload(form([["brief.png", await colourPng(8, 8, 8)]]))).body;
    await h.json("POST", "/v2/model-instances", { ...as(), body: { model: "post", data: { title: "Attached", attachment: { id: doc.id } } } });
    const ok = await replace(doc.id, form([["brief.pdf", pdf]]));
    expect([ok.status, ok.body.kind, ok.body.mimeType, ok.body.width]).toEqual([200, "pdf", "application/pdf", null]);
  });

  test("refusals: no file, two files, a field beside the file, an unknown id, a viewer", async () => {
    const img = (await upload(form([["x.png", await colourPng(7, 7, 7)]]))).body;
    const none = await replace(img.id, form([], {}));
    expect([none.status, none.body.code]).toEqual([400, "file_required"]);
    const two = await replace(
      img.id,
      form([
        ["a.png", png],
        ["b.png", png],
      ]),
    );
    expect([two.status, two.body]).toEqual([400, { error: "Send one file: this route replaces a single file.", code: "invalid_body", field: "file" }]);
    const alt = await replace(img.id, form([["a.png", await colourPng(6, 6, 6)]], { alt: "new" }));
    expect([alt.status, alt.body]).toEqual([
      400,
      { error: "alt is not replaced with the file; change it with PATCH /v2/media/:id", code: "invalid_body", field: "alt" },
    ]);
    const ghost = await replace(crypto.randomUUID(), form([["a.png", png]]));
    expect([ghost.status, ghost.body.code]).toEqual([404, "not_found"]);
    const viewer = await memberToken(h, token, projectId, "viewer@example.com", "viewer");
    const refused = await replace(img.id, form([["a.png", png]]), viewer);
    expect([refused.status, refused.body]).toEqual([403, { error: "Insufficient permissions", required: ["owner", "admin", "editor"], current: "viewer" }]);
    expect((await h.json("GET", `/v2/media/${img.id}`, as())).body).toEqual(img);
  });
});

describe("uploads of bytes the library holds already", () => {
  test("409 duplicate_file offers the existing file; duplicate=true keeps a second copy", async () => {
    const bytes = await colourPng(50, 100, 150);
    const first = (await upload(form([["sky.png", bytes]]))).body;
    const count = async () => (await h.json("GET", "/v2/media?limit=100", as())).body.data.length;
    const n = await count();
    const again = await upload(form([["sky-copy.png", bytes]]));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error:
        '"sky-copy.png" is in the library already as "sky.png" (uploaded 2026-11-21): use that file, or upload again with ?duplicate=true to keep a second copy.',
      code: "duplicate_file",
      file: "sky-copy.png",
      existing: first,
    });
    expect(await count()).toBe(n);
    // Among several files, one duplicate refuses the upload: nothing of it is kept.
    const mixed = await upload(
      form([
        ["new.png", await colourPng(1, 100, 1)],
        ["sky.png", bytes],
      ]),
    );
    expect([mixed.status, mixed.body.file, await count()]).toEqual([409, "sky.png", n]);
    const kept = await upload(form([["sky-copy.png", bytes]]), "?duplicate=true");
    expect([kept.status, kept.body.checksum === first.checksum, kept.body.id === first.id]).toEqual([201, true, false]);
    const bad = await upload(form([["x.png", bytes]]), "?duplicate=yes");
    expect([bad.status, bad.body]).toEqual([400, { error: "duplicate must be true or false", code: "invalid_body", field: "duplicate" }]);
  });

  test("a drop of 200 files: sent a few at a time, every one is kept; 200 in one request are refused in words", async () => {
    const files = await Promise.all(Array.from({ length: 200 }, (_, i) => colourPng(i, 255 - i, (i * 7) % 256, 12, 12)));
    const before = (await h.json("GET", "/v2/media?limit=1", as())).body.data[0]?.id;
    const all = form(files.map((f, i) => [`drop-${i}.png`, f]));
    const refused = await upload(all);
    expect([refused.status, refused.body]).toEqual([400, { error: "At most 50 files per upload.", code: "invalid_body", field: "file" }]);
    expect((await h.json("GET", "/v2/media?limit=1", as())).body.data[0]?.id).toBe(before);
    const statuses: number[] = [];
    for (let i = 0; i < 200; i += 4) {
      const batch = await Promise.all(files.slice(i, i + 4).map((f, j) => upload(form([[`drop-${i + j}.png`, f]]))));
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses).toEqual(Array(200).fill(201));
    const listed = (await h.json("GET", "/v2/search?q=drop-&limit=50", as())).body.media;
    expect(listed).toHaveLength(50);
  });
});
