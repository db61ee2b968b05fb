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

async function upload(fd: FormData, t = token, headers: Record<string, string> = {}, path = "/v2/media") {
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
