// Media references in entries through the real app: `{ id, alt? }` values must name a file of the
// project (400 naming the field, nothing written); reads resolve the six keys from the library
// (alt falling back to the file's, url absolute from CAPA_MEDIA_BASE_URL); an alt edit shows at
// once in cached production answers; a deleted file reads null and is named in
// meta.missingReferences; the old full-object form reads as stored.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { scopedKey } from "../agent-keys.ts";
import { type Harness, startApp, withOwner } from "../harness.ts";
import { png64 } from "./fixtures.ts";

const CDN = "https://cdn.example.com";
let h: Harness;
let token: string;
let projectId: string;
let dev: string;
let prod: string;
let fileA: any;
let fileB: any;
const OLD = { id: "img_1", url: "https://old.example.com/1.png", alt: "Old", type: "image", width: 10, height: 20 };

const as = () => ({ token, headers: { "x-svc-project": projectId } });

async function upload(name: string, bytes: Uint8Array, alt: string) {
  const fd = new FormData();
  fd.append("file", new Blob([bytes as BlobPart]), name);
  fd.append("alt", alt);
  // Two records of the same bytes on purpose (each with its own alt): a second copy is kept.
  const r = await h.json("POST", "/v2/media?duplicate=true", { raw: fd, ...as() });
  expect(r.status).toBe(201);
  return r.body;
}

const six = (f: any, alt: string) => ({ id: f.id, url: `${CDN}/media/${projectId}/${f.id}/${f.filename}`, alt, type: "image", width: 64, height: 48 });

beforeAll(async () => {
  h = startApp({ mediaBaseUrl: CDN });
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
  const png = await png64();
  fileA = await upload("a.png", png, "File A");
  fileB = await upload("b.png", png, "File B");
  const m = await h.json("POST", "/v2/models", {
    ...as(),
    body: {
      name: "Post",
      namespace: "post",
      fields: [
        { namespace: "title", type: "string" },
        { namespace: "cover", type: "image" },
        { namespace: "gallery", type: "array", arrayType: "image" },
      ],
    },
  });
  expect(m.status).toBe(201);
  dev = await scopedKey(h, token, ["instance:read"], "development");
  prod = await scopedKey(h, token, ["instance:read"], "production");
});
afterAll(() => h.close());

async function entries(key: string) {
  const r = await h.json("GET", "/api/entries/post?limit=50&sort=createdAt", { headers: { "x-api-key": key } });
  expect(r.status).toBe(200);
  return r.body;
}

describe("writing references", () => {
  test("an id that names no file of the project is refused naming the field, and nothing is written", async () => {
    const other = await withOwner(h, "other@example.com");
    const fd = new FormData();
    fd.append("file", new Blob(["elsewhere"]), "e.txt");
    const foreign = (await h.json("POST", "/v2/media", { raw: fd, token: other.token, headers: { "x-svc-project": other.project.id } })).body.id;
    for (const [data, field, id] of [
      [{ cover: { id: "nope" } }, "data.cover", "nope"],
      [{ gallery: [{ id: fileA.id }, { id: foreign }] }, "data.gallery", foreign],
    ] as const) {
      const r = await h.json("POST", "/v2/model-instances", { ...as(), body: { model: "post", data } });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: `${field} names ${id}, which is not a media file of this project`, code: "invalid_body", field });
    }
    const bad = await h.json("POST", "/v2/model-instances", { ...as(), body: { model: "post", data: { cover: { id: fileA.id, width: 3 } } } });
    expect(bad.body).toEqual({ error: "data.cover.width is not a key of a media reference; use id and alt", code: "invalid_body", field: "data.cover.width" });
    expect((await entries(dev)).data).toEqual([]);
  });
});

describe("reading references", () => {
  let first: string;
  beforeAll(async () => {
    const a = await h.json("POST", "/v2/model-instances", {
      ...as(),
      body: { model: "post", data: { title: "Refs", cover: { id: fileA.id }, gallery: [{ id: fileA.id, alt: "Own alt" }, { id: fileB.id }] } },
    });
    expect(a.status).toBe(201);
    first = a.body.id;
    await h.json("POST", `/v2/model-instances/${first}/publish`, { ...as(), body: {} });
    const b = await h.json("POST", "/v2/model-instances", { ...as(), body: { model: "post", data: { title: "Old form", cover: OLD } } });
    expect(b.status).toBe(201);
  });

  test("the six keys, alt falling back to the file's; the old full object reads as stored", async () => {
    const body = await entries(dev);
    expect(body.data.map((e: any) => [e.title, e.cover, e.gallery])).toEqual([
      ["Refs", six(fileA, "File A"), [six(fileA, "Own alt"), six(fileB, "File B")]],
      ["Old form", OLD, null],
    ]);
    expect(body.meta.missingReferences).toBeUndefined();
  });

  test("GraphQL reads the same six keys; Media.url takes a transform (refused like the URL's own grammar)", async () => {
    const q = `{ post(sort: [createdAt_ASC]) { nodes { title cover { id url alt type width height } small: cover { url(transform: { w: 32, fm: webp }) } } } }`;
    const r = await h.json("POST", "/api/graphql", { headers: { "x-api-key": dev }, body: { query: q } });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.post.nodes).toEqual([
      { title: "Refs", cover: six(fileA, "File A"), small: { url: `${six(fileA, "").url}?w=32&fm=webp` } },
      { title: "Old form", cover: OLD, small: { url: OLD.url } },
    ]);
    const bad = await h.json("POST", "/api/graphql", {
      headers: { "x-api-key": dev },
      body: { query: "{ post { nodes { cover { url(transform: { w: 0 }) } } } }" },
    });
    expect(bad.body.errors[0]).toMatchObject({ message: expect.stringContaining("w"), extensions: { code: "invalid_transform" } });
  });

  test("the published event's content carries the six resolved keys", async () => {
    const row = h.capa.services.projects
      .get(projectId)
      .sqlite.query("SELECT content FROM events WHERE type = 'instance.published' ORDER BY seq DESC LIMIT 1")
      .get() as { content: string };
    const content = JSON.parse(row.content);
    expect([content.cover, content.gallery]).toEqual([six(fileA, "File A"), [six(fileA, "Own alt"), six(fileB, "File B")]]);
  });

  test("usage lists the entry; an alt edit shows at once in a cached production answer", async () => {
    const usage = await h.json("GET", `/v2/media/${fileB.id}/usage`, as());
    expect(usage.body.entries).toEqual([{ id: first, modelId: expect.any(String), namespace: "post", title: "Refs", copies: ["draft", "published"] }]);
    expect((await entries(prod)).data[0].cover.alt).toBe("File A");
    expect((await entries(prod)).data[0].cover.alt).toBe("File A");
    await h.json("PATCH", `/v2/media/${fileA.id}`, { ...as(), body: { alt: "Edited" } });
    const after = await entries(prod);
    expect(after.data[0].cover).toEqual(six(fileA, "Edited"));
    expect(after.data[0].gallery[0].alt).toBe("Own alt");
  });

  test("a deleted file reads null (dropped from a list) and is named in meta.missingReferences", async () => {
    expect((await h.req("DELETE", `/v2/media/${fileB.id}?force=true`, as())).status).toBe(204);
    const body = await entries(prod);
    expect(body.data[0].gallery).toEqual([six(fileA, "Own alt")]);
    expect(body.meta.missingReferences).toEqual([fileB.id]);
    expect((await h.req("DELETE", `/v2/media/${fileA.id}?force=true`, as())).status).toBe(204);
    const gone = await entries(prod);
    expect(gone.data[0].cover).toBeNull();
    expect(gone.meta.missingReferences.sort()).toEqual([fileA.id, fileB.id].sort());
    const g = await h.json("POST", "/api/graphql", {
      headers: { "x-api-key": prod },
      body: { query: "{ post { nodes { title cover { id url } gallery { id } } } }" },
    });
    expect(g.body.data.post.nodes).toEqual([{ title: "Refs", cover: null, gallery: [] }]);
  });
});
