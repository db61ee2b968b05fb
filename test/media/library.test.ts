// The media library through the real app: uploads (FormData bodies), the record, the list with its
// filters and cursor, edits, deletes, events in the outbox, roles and the agent mount, and the
// Idempotency-Key. Every refusal is checked whole and leaves no record and no stored bytes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { memberToken } from "../api/helpers.ts";
import { legacyKey } from "../agent-keys.ts";
import { BASE, type Harness, startApp, withOwner } from "../harness.ts";
import { HTML_PAGE, png64 } from "./fixtures.ts";

let h: Harness;
let token: string;
let projectId: string;
let userId: string;
let png: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
  userId = o.user.id;
  png = await png64();
});
afterAll(() => h.close());

const as = (t: string) => ({ token: t, headers: { "x-svc-project": projectId } });

/** A FormData upload of `files` (name, bytes) plus text fields. */
function form(files: [string, Uint8Array | string][], fields: Record<string, string> = {}): FormData {
  const fd = new FormData();
  for (const [name, bytes] of files) fd.append("file", new Blob([bytes as BlobPart]), name);
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

// The tests here upload the same small PNG as different files: each keeps its own copy
// (duplicates.test.ts has the refusal of bytes the library holds already).
async function upload(fd: FormData, t = token, headers: Record<string, string> = {}, path = "/v2/media?duplicate=true") {
  return h.json("POST", path, { raw: fd, token: t, headers: { "x-svc-project": projectId, ...headers } });
}

/** The ids of the files the local store holds for the project. */
function storedIds(): string[] {
  const dir = join(h.dir, "media", projectId);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

function events(type?: string): { type: string; body: any }[] {
  const rows = h.capa.services.projects.get(projectId).sqlite.query("SELECT type, body FROM events ORDER BY seq").all() as { type: string; body: string }[];
  return rows.filter((r) => type === undefined || r.type === type).map((r) => ({ type: r.type, body: JSON.parse(r.body) }));
}

const ISO = "2026-11-21T12:00:00.000Z";

describe("uploads", () => {
  test("one file answers 201 with the whole record; the bytes are stored and served", async () => {
    const r = await upload(form([["dot.png", png]], { alt: "A dot", title: "Dot" }));
    expect(r.status).toBe(201);
    const id = r.body.id as string;
    expect(r.body).toEqual({
      id,
      filename: "dot.png",
      kind: "image",
      mimeType: "image/png",
      size: png.byteLength,
      width: 64,
      height: 48,
      duration: null,
      alt: "A dot",
      title: "Dot",
      folder: null,
      focalPoint: null,
      checksum: new Bun.CryptoHasher("sha256").update(png).digest("hex"),
      placeholder: expect.any(String),
      url: `http://127.0.0.1:3000/media/${projectId}/${id}/dot.png`,
      createdAt: ISO,
      updatedAt: ISO,
      createdBy: `user:${userId}`,
    });
    expect(storedIds()).toContain(id);
    const file = await h.req("GET", `/media/${projectId}/${id}/dot.png`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png);
    const ev = events("media.uploaded").at(-1)!;
    expect(ev.body.data).toEqual({ mediaId: id, filename: "dot.png", kind: "image", size: png.byteLength, folder: null });
  });

  test("several files answer { data } in order; HTML named .jpg is a document", async () => {
    const r = await upload(
      form([
        ["a.txt", "hello"],
        ["cat.jpg", HTML_PAGE],
      ]),
    );
    expect(r.status).toBe(201);
    expect(r.body.data.map((m: any) => [m.filename, m.kind, m.mimeType])).toEqual([
      ["a.txt", "document", "text/plain"],
      ["cat.jpg", "document", "text/html"],
    ]);
  });

  test("a folder that does not exist is refused and nothing is kept", async () => {
    const before = storedIds();
    const count = (await h.json("GET", "/v2/media?limit=100", as(token))).body.data.length;
    const r = await upload(form([["x.png", png]], { folder: "no-such-folder" }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'folder names no media folder of this project: "no-such-folder"', code: "invalid_body", field: "folder" });
    expect(storedIds()).toEqual(before);
    expect((await h.json("GET", "/v2/media?limit=100", as(token))).body.data.length).toBe(count);
    expect(readdirSync(join(h.dir, "media", ".uploads"))).toEqual([]);
  });

  test("an over-limit file answers 413 file_too_large and keeps nothing", async () => {
    const small = startApp({ media: { ...h.capa.services.config.media, maxBytes: 100 } });
    try {
      const o = await withOwner(small);
      const fd = form([["big.bin", new Uint8Array(101)]]);
      const r = await small.json("POST", "/v2/media", { raw: fd, token: o.token, headers: { "x-svc-project": o.project.id } });
      expect(r.status).toBe(413);
      expect(r.body).toEqual({ error: 'The file part 1 ("big.bin") is larger than the limit of 100 bytes.', code: "file_too_large", limit: 100 });
      expect(existsSync(join(small.dir, "media", o.project.id))).toBe(false);
    } finally {
      small.close();
    }
  });

  test("a body that is not multipart answers 400 upload_not_multipart and keeps nothing", async () => {
    const before = storedIds();
    const r = await h.json("POST", "/v2/media", { ...as(token), body: { file: "x" } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "Uploads must be sent as multipart/form-data.", code: "upload_not_multipart" });
    expect(storedIds()).toEqual(before);
  });

  test("a path in a file name answers 400 invalid_filename and keeps nothing", async () => {
    const before = storedIds();
    const r = await upload(
      form([
        ["ok.txt", "fine"],
        ["../../etc/passwd", "x"],
      ]),
    );
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'The name of file part 2 contains a path separator: "../../etc/passwd".', code: "invalid_filename", field: "filename" });
    expect(storedIds()).toEqual(before);
  });

  test("no file part answers 400 file_required", async () => {
    const r = await upload(form([], { alt: "x" }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "The upload has no file part.", code: "file_required", field: "file" });
  });

  test("Idempotency-Key replays the answer and keeps one copy of the bytes", async () => {
    const fd = () => form([["same.txt", "same bytes"]]);
    const first = await upload(fd(), token, { "idempotency-key": "up-1" });
    expect(first.status).toBe(201);
    const stored = storedIds();
    const again = await upload(fd(), token, { "idempotency-key": "up-1" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(storedIds()).toEqual(stored);
    const other = await upload(form([["other.txt", "other bytes"]]), token, { "idempotency-key": "up-1" });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({
      error: "That Idempotency-Key was used with another request in the last 24 hours.",
      code: "idempotency_key_reused",
      field: "Idempotency-Key",
    });
    expect(storedIds()).toEqual(stored);
  });
});

describe("the list, one record, edits", () => {
  let ids: string[];
  let folderId: string;
  beforeAll(async () => {
    const f = await h.json("POST", "/v2/media-folders", { ...as(token), body: { name: "Listed" } });
    folderId = f.body.id;
    const r = await upload(
      form(
        [
          ["harbour-dawn.txt", "1"],
          ["harbour-noon.txt", "2"],
          ["field.png", png],
        ],
        { folder: folderId },
      ),
    );
    ids = r.body.data.map((m: any) => m.id);
  });

  test("newest first by folder, with a cursor", async () => {
    const p1 = await h.json("GET", `/v2/media?folder=${folderId}&limit=2`, as(token));
    expect(p1.status).toBe(200);
    expect(p1.body.data.map((m: any) => m.id)).toEqual([ids[2], ids[1]]);
    expect(p1.body.next).toEqual(expect.any(String));
    const p2 = await h.json("GET", `/v2/media?folder=${folderId}&limit=2&after=${p1.body.next}`, as(token));
    expect(p2.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], next: null, total: 3 });
  });

  test("kind and q filter; q matches filename, title and alt", async () => {
    const k = await h.json("GET", `/v2/media?folder=${folderId}&kind=image`, as(token));
    expect(k.body.data.map((m: any) => m.id)).toEqual([ids[2]]);
    const q = await h.json("GET", `/v2/media?folder=${folderId}&q=HARBOUR`, as(token));
    expect(q.body.data.map((m: any) => m.id)).toEqual([ids[1], ids[0]]);
    await h.json("PATCH", `/v2/media/${ids[2]}`, { ...as(token), body: { alt: "A wide field" } });
    const alt = await h.json("GET", `/v2/media?q=wide`, as(token));
    expect(alt.body.data.map((m: any) => m.id)).toEqual([ids[2]]);
    const none = await h.json("GET", `/v2/media?q=${encodeURIComponent("%")}`, as(token));
    expect(none.body.data).toEqual([]);
  });

  test("bad list parameters name the parameter", async () => {
    for (const [qs, field, error] of [
      ["kind=photo", "kind", "kind must be one of: image, video, audio, document, pdf, file, unknown"],
      ["limit=0", "limit", "limit must be a whole number from 1 to 100"],
      ["after=abc", "after", "after must be the next cursor of a previous page"],
    ]) {
      const r = await h.json("GET", `/v2/media?${qs}`, as(token));
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error, code: "invalid_body", field });
    }
  });

  test("GET one; an unknown id is 404", async () => {
    const r = await h.json("GET", `/v2/media/${ids[0]}`, as(token));
    expect(r.body.filename).toBe("harbour-dawn.txt");
    const miss = await h.json("GET", "/v2/media/nope", as(token));
    expect(miss.status).toBe(404);
    expect(miss.body).toEqual({ error: "No media file with id nope in this project.", code: "not_found" });
  });

  test("PATCH edits, emits media.updated, and a new filename moves the URL", async () => {
    h.clock.advance(1000);
    const r = await h.json("PATCH", `/v2/media/${ids[2]}`, {
      ...as(token),
      body: { title: "Field", focalPoint: { x: 0.25, y: 0.75 }, folder: null, filename: "meadow.png" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      title: "Field",
      focalPoint: { x: 0.25, y: 0.75 },
      folder: null,
      filename: "meadow.png",
      updatedAt: "2026-11-21T12:00:01.000Z",
    });
    expect(r.body.url).toEndWith(`/media/${projectId}/${ids[2]}/meadow.png`);
    expect(events("media.updated").at(-1)!.body.data).toEqual({ mediaId: ids[2], filename: "meadow.png", kind: "image", size: png.byteLength, folder: null });
    expect((await h.req("GET", `/media/${projectId}/${ids[2]}/meadow.png`)).status).toBe(200);
    const old = await h.json("GET", `/media/${projectId}/${ids[2]}/field.png`);
    expect(old.status).toBe(404);
    expect(old.body.error).toMatchObject({ code: "not_found", message: "No file at this URL." });
  });

  test("PATCH refusals name the field and change nothing", async () => {
    const before = (await h.json("GET", `/v2/media/${ids[0]}`, as(token))).body;
    for (const [body, field, error, code] of [
      [{ size: 3 }, "size", "size cannot be edited; send alt, title, folder, focalPoint, filename", "invalid_body"],
      [{ focalPoint: { x: 2, y: 0 } }, "focalPoint.x", "focalPoint.x must be a number from 0 to 1.", "invalid_body"],
      [{ folder: "nope" }, "folder", 'folder names no media folder of this project: "nope"', "invalid_body"],
      [{ filename: "../etc/passwd" }, "filename", 'The name of this file contains a path separator: "../etc/passwd".', "invalid_filename"],
    ] as const) {
      const r = await h.json("PATCH", `/v2/media/${ids[0]}`, { ...as(token), body });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error, code, field });
    }
    expect((await h.json("GET", `/v2/media/${ids[0]}`, as(token))).body).toEqual(before);
  });
});

describe("folders", () => {
  test("create, nest, rename; a folder cannot become its own ancestor", async () => {
    const a = await h.json("POST", "/v2/media-folders", { ...as(token), body: { name: "A" } });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({ id: a.body.id, name: "A", parent: null, createdAt: expect.any(String), updatedAt: expect.any(String) });
    const b = await h.json("POST", "/v2/media-folders", { ...as(token), body: { name: "B", parent: a.body.id } });
    expect(b.body.parent).toBe(a.body.id);
    for (const parent of [a.body.id, b.body.id]) {
      const loop = await h.json("PATCH", `/v2/media-folders/${a.body.id}`, { ...as(token), body: { parent } });
      expect(loop.status).toBe(400);
      expect(loop.body).toEqual({ error: "A folder cannot move into itself or one of its own folders.", code: "invalid_body", field: "parent" });
    }
    const renamed = await h.json("PATCH", `/v2/media-folders/${b.body.id}`, { ...as(token), body: { name: "Bee", parent: null } });
    expect(renamed.body).toMatchObject({ name: "Bee", parent: null });
    const list = await h.json("GET", "/v2/media-folders", as(token));
    expect(list.body.data.map((f: any) => f.name)).toContain("Bee");
    const badParent = await h.json("POST", "/v2/media-folders", { ...as(token), body: { name: "C", parent: "nope" } });
    expect(badParent.body).toEqual({ error: 'parent names no media folder of this project: "nope"', code: "invalid_body", field: "parent" });
  });

  test("a folder holding files or folders answers 409 folder_not_empty", async () => {
    const top = await h.json("POST", "/v2/media-folders", { ...as(token), body: { name: "Top" } });
    const sub = await h.json("POST", "/v2/media-folders", { ...as(token), body: { name: "Sub", parent: top.body.id } });
    const up = await upload(form([["in.txt", "x"]], { folder: sub.body.id }));
    const full = await h.json("DELETE", `/v2/media-folders/${sub.body.id}`, as(token));
    expect(full.status).toBe(409);
    expect(full.body).toEqual({
      error: "The folder holds 1 file(s) and 0 folder(s); move or delete them first.",
      code: "folder_not_empty",
      files: 1,
      folders: 0,
    });
    const parent = await h.json("DELETE", `/v2/media-folders/${top.body.id}`, as(token));
    expect(parent.body).toMatchObject({ code: "folder_not_empty", files: 0, folders: 1 });
    await h.json("PATCH", `/v2/media/${up.body.id}`, { ...as(token), body: { folder: null } });
    expect((await h.req("DELETE", `/v2/media-folders/${sub.body.id}`, as(token))).status).toBe(204);
    expect((await h.req("DELETE", `/v2/media-folders/${top.body.id}`, as(token))).status).toBe(204);
  });

  test("a workspace media_folder node must name an existing folder", async () => {
    const f = await h.json("POST", "/v2/media-folders", { ...as(token), body: { name: "Rail" } });
    const ok = await h.json("POST", "/v2/workspaces", { ...as(token), body: { name: "W", tree: [{ media_folder: f.body.id }] } });
    expect(ok.status).toBe(201);
    const bad = await h.json("POST", "/v2/workspaces", { ...as(token), body: { name: "W2", tree: [{ folder: "X", children: [{ media_folder: "gone" }] }] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: 'tree[0].children[0].media_folder names no media folder of this project: "gone"',
      code: "invalid_body",
      field: "tree[0].children[0].media_folder",
      path: "tree[0].children[0]",
    });
    // The same node added on its own, and the tree replaced with it: the same refusal, nothing saved.
    const wid = ok.body.id;
    const added = await h.json("POST", `/v2/workspaces/${wid}/nodes`, { ...as(token), body: { node: { id: "n1", media_folder: "gone" } } });
    expect([added.status, added.body]).toEqual([
      400,
      { error: 'node.media_folder names no media folder of this project: "gone"', code: "invalid_body", field: "node.media_folder", path: "node" },
    ]);
    const replaced = await h.json("PUT", `/v2/workspaces/${wid}/tree`, { ...as(token), body: { mode: "replace", tree: [{ media_folder: "gone" }] } });
    expect([replaced.status, replaced.body.path]).toEqual([400, "tree[0]"]);
    const tree = await h.json("GET", `/v2/workspaces/${wid}/tree`, as(token));
    expect(tree.body.data.map((n: { type: string; mediaFolderId: string }) => [n.type, n.mediaFolderId])).toEqual([["media_folder", f.body.id]]);
  });
});

describe("roles and the agent mount", () => {
  test("a viewer reads but cannot upload; an editor uploads", async () => {
    const viewer = await memberToken(h, token, projectId, "viewer@example.com", "viewer");
    const editor = await memberToken(h, token, projectId, "editor@example.com", "editor");
    expect((await h.json("GET", "/v2/media", as(viewer))).status).toBe(200);
    const refused = await upload(form([["v.txt", "v"]]), viewer);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "Insufficient permissions", required: ["owner", "admin", "editor"], current: "viewer" });
    expect((await upload(form([["e.txt", "e"]]), editor)).status).toBe(201);
  });

  test("a legacy key uploads and lists on /v2/agent", async () => {
    const key = await legacyKey(h, token, "write");
    const up = await h.json("POST", "/v2/agent/media", { raw: form([["k.txt", "k"]]), headers: { "x-api-key": key } });
    expect(up.status).toBe(201);
    expect(up.body.createdBy).toStartWith("api_key:");
    const list = await h.json("GET", "/v2/agent/media?limit=1", { headers: { "x-api-key": key } });
    expect(list.body.data[0].id).toBe(up.body.id);
  });

  test("webhook endpoints may subscribe to media events", async () => {
    const r = await h.json("POST", "/v2/webhooks", {
      ...as(token),
      body: { url: "https://hooks.example.com/capa", events: ["media.uploaded", "media.updated", "media.deleted"] },
    });
    expect(r.status).toBe(201);
    expect(r.body.events).toEqual(["media.uploaded", "media.updated", "media.deleted"]);
  });
});

describe("delete and usage", () => {
  let fileId: string;
  let entryId: string;
  beforeAll(async () => {
    fileId = (await upload(form([["hero.png", png]]))).body.id;
    const m = await h.json("POST", "/v2/models", {
      ...as(token),
      body: {
        name: "Post",
        namespace: "post",
        fields: [
          { namespace: "title", type: "string" },
          { namespace: "cover", type: "image" },
        ],
      },
    });
    expect(m.status).toBe(201);
    const e = await h.json("POST", "/v2/model-instances", {
      ...as(token),
      body: { model: "post", data: { title: "Hello", cover: { id: fileId, url: "https://old.example.com/x.png" } } },
    });
    expect(e.body).toMatchObject({ id: expect.any(String) });
    entryId = e.body.id;
  });

  test("usage names the entries; DELETE answers 409 media_in_use while used and keeps everything", async () => {
    const u = await h.json("GET", `/v2/media/${fileId}/usage`, as(token));
    expect(u.body).toEqual({ entries: [{ id: entryId, modelId: expect.any(String), namespace: "post", title: "Hello", copies: ["draft"] }] });
    const r = await h.json("DELETE", `/v2/media/${fileId}`, as(token));
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      error: "The file is used by 1 entry; remove it there first or delete with ?force=true.",
      code: "media_in_use",
      entries: u.body.entries,
    });
    expect(storedIds()).toContain(fileId);
    expect((await h.json("GET", `/v2/media/${fileId}`, as(token))).status).toBe(200);
  });

  test("?force=true deletes the record, its bytes and its URL, with media.deleted", async () => {
    const r = await h.req("DELETE", `/v2/media/${fileId}?force=true`, as(token));
    expect(r.status).toBe(204);
    expect((await h.json("GET", `/v2/media/${fileId}`, as(token))).status).toBe(404);
    expect(events("media.deleted").at(-1)!.body.data).toEqual({ mediaId: fileId, filename: "hero.png", kind: "image", size: png.byteLength, folder: null });
    expect(storedIds()).not.toContain(fileId);
    const file = await h.json("GET", `/media/${projectId}/${fileId}/hero.png`);
    expect(file.status).toBe(404);
    expect(file.body).toEqual({
      error: { type: "not_found", code: "not_found", message: "No file at this URL.", docs: `${BASE}/docs/errors/not_found` },
      meta: { version: "2026-10-01", contract: 1, requestId: expect.any(String) },
    });
    expect((await h.req("HEAD", `/media/${projectId}/${fileId}/hero.png`)).status).toBe(404);
  });
});

describe("the public file URL", () => {
  test("transforms render; a bad one answers invalid_transform in the /api envelope", async () => {
    const id = (await upload(form([["t.png", png]]))).body.id;
    const ok = await h.req("GET", `/media/${projectId}/${id}/t.png?w=32&fm=webp`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("image/webp");
    const bad = await h.json("GET", `/media/${projectId}/${id}/t.png?w=0`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: {
        type: "invalid_request",
        code: "invalid_transform",
        message: expect.any(String),
        param: "w",
        hint: "Example: ?w=800&fm=auto (w and h 1-4096, fit cover|contain|inside|outside|fill, fm jpg|png|webp|avif|auto, q 1-100, dpr 1-3).",
        docs: `${BASE}/docs/errors/invalid_transform`,
      },
      meta: { version: "2026-10-01", contract: 1, requestId: expect.any(String) },
    });
    const head = await h.req("HEAD", `/media/${projectId}/${id}/t.png`);
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(png.byteLength));
  });

  test("unknown projects, ids and traversal answer 404", async () => {
    for (const path of [`/media/nope/x/y.png`, `/media/${projectId}/nope/y.png`, `/media/${projectId}/..%2F..%2Fetc/passwd`]) {
      expect((await h.req("GET", path)).status).toBe(404);
    }
  });
});
