// Saving (decisions.md 15; docs/editing.md, "Saving"): a PATCH equal to the latest draft adds no
// version and says so; ?autosave=true replaces the same person's autosave of the last 30 minutes
// in place and otherwise adds a version marked autosave; an autosave racing a manual save with
// If-Match loses nothing; duplicate copies values and tags, empties unique values, moves slugs on.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { addMember } from "../api/helpers.ts";

const MIN = 60_000;
let h: Harness;
let token: string;
let other: string;
let pid: string;
beforeAll(async () => {
  h = startApp();
  ({ token } = await withOwner(h));
  pid = (await h.json("GET", "/v2/projects", { token })).body.data[0].id;
  await addMember(h, token, pid, "ed@example.com", "editor", "member-password-1");
  other = (await h.json("POST", "/v2/user/login", { body: { email: "ed@example.com", password: "member-password-1" } })).body.accessToken;
  const r = await h.json("POST", "/v2/models", {
    token,
    body: {
      name: "Post",
      namespace: "post",
      fields: [
        { namespace: "title", type: "string" },
        { namespace: "slug", type: "string", slug: { from: "title" } },
        { namespace: "isbn", type: "string", unique: true },
        { namespace: "body", type: "markdown" },
      ],
    },
  });
  expect(r.status).toBe(201);
});
afterAll(() => h.close());

const create = async (data: Record<string, unknown>, tags: string[] = []) =>
  (await h.json("POST", "/v2/model-instances", { token, body: { model: "post", data, tags } })).body;
const patch = (id: string, body: unknown, opts: { autosave?: boolean; as?: string; ifMatch?: number } = {}) =>
  h.json("PATCH", `/v2/model-instances/${id}${opts.autosave ? "?autosave=true" : ""}`, {
    token: opts.as ?? token,
    headers: { "x-svc-project": pid, ...(opts.ifMatch !== undefined ? { "if-match": String(opts.ifMatch) } : {}) },
    body,
  });
const versions = async (id: string) =>
  (await h.json("GET", `/v2/model-instances/${id}/versions`, { token })).body.data.map((v: any) => [v.number, v.autosave, v.data.body]);

describe("a save equal to the latest draft", () => {
  test("adds no version, moves no time, and the answer names the unchanged version", async () => {
    const e = await create({ title: "Same", body: "x" }, ["a"]);
    h.clock.advance(1000);
    const r = await patch(e.id, { data: { title: "Same", body: "x", isbn: null }, tags: ["a"] });
    expect(r.status).toBe(200);
    expect(r.body.save).toEqual({ outcome: "unchanged", versionId: e.draft.versionId, version: 1 });
    const { save: _, ...record } = r.body;
    expect(record).toEqual(e);
    expect(await versions(e.id)).toEqual([[1, false, "x"]]);
  });

  test("a real change adds a version", async () => {
    const e = await create({ title: "Changing" });
    const r = await patch(e.id, { data: { body: "new" } });
    expect(r.body.save).toEqual({ outcome: "created", versionId: r.body.draft.versionId, version: 2 });
    expect(await versions(e.id)).toEqual([
      [2, false, "new"],
      [1, false, null],
    ]);
  });
});

describe("?autosave=true", () => {
  test("adds a version marked autosave, then replaces it in place while it is the same person's and under 30 minutes old", async () => {
    const e = await create({ title: "Auto" });
    const a1 = await patch(e.id, { data: { body: "t" } }, { autosave: true });
    expect(a1.body.save).toMatchObject({ outcome: "created", version: 2 });
    h.clock.advance(29 * MIN);
    const a2 = await patch(e.id, { data: { body: "ty" } }, { autosave: true });
    expect(a2.body.save).toEqual({ outcome: "replaced", versionId: a1.body.draft.versionId, version: 2 });
    expect(a2.body.updatedAt).toBe(new Date(h.clock.now()).toISOString());
    expect(await versions(e.id)).toEqual([
      [2, true, "ty"],
      [1, false, null],
    ]);
    // 30 minutes after the version was made, the next autosave starts a new one.
    h.clock.advance(MIN);
    const a3 = await patch(e.id, { data: { body: "typ" } }, { autosave: true });
    expect(a3.body.save).toMatchObject({ outcome: "created", version: 3 });
    expect(await versions(e.id)).toEqual([
      [3, true, "typ"],
      [2, true, "ty"],
      [1, false, null],
    ]);
  });

  test("another person's autosave, a manual version, and the published version are never replaced", async () => {
    const e = await create({ title: "Shared" });
    await patch(e.id, { data: { body: "mine" } }, { autosave: true });
    const theirs = await patch(e.id, { data: { body: "theirs" } }, { autosave: true, as: other });
    expect(theirs.body.save).toMatchObject({ outcome: "created", version: 3 });
    await patch(e.id, { data: { body: "manual" } });
    expect((await patch(e.id, { data: { body: "after manual" } }, { autosave: true })).body.save).toMatchObject({ outcome: "created", version: 5 });
    expect((await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token })).body.status).toBe("published");
    const after = await patch(e.id, { data: { body: "after publish" } }, { autosave: true });
    expect(after.body.save).toMatchObject({ outcome: "created", version: 6 });
    expect(after.body).toMatchObject({ status: "changed", publishedVersion: 5 });
    expect((await versions(e.id)).map((v: unknown[]) => v.slice(0, 2))).toEqual([
      [6, true],
      [5, true],
      [4, false],
      [3, true],
      [2, true],
      [1, false],
    ]);
  });

  test("a manual save of what was autosaved keeps it: the next autosave adds a version after it", async () => {
    const e = await create({ title: "Keep" });
    await patch(e.id, { data: { body: "draft" } }, { autosave: true });
    const save = await patch(e.id, { data: { body: "draft" } });
    expect(save.body.save).toMatchObject({ outcome: "unchanged", version: 2 });
    expect((await patch(e.id, { data: { body: "draft 2" } }, { autosave: true })).body.save).toMatchObject({ outcome: "created", version: 3 });
    expect(await versions(e.id)).toEqual([
      [3, true, "draft 2"],
      [2, false, "draft"],
      [1, false, null],
    ]);
  });

  test("an autosave racing a manual save: with If-Match the late one is refused and nothing is lost", async () => {
    const e = await create({ title: "Race" });
    const manual = await patch(e.id, { data: { body: "saved by hand" } }, { ifMatch: 1 });
    expect(manual.body.version).toBe(2);
    const late = await patch(e.id, { data: { body: "stale autosave" } }, { autosave: true, ifMatch: 1 });
    expect([late.status, late.body]).toEqual([
      409,
      {
        error: "The entry is at version 2; your edit was based on version 1.",
        code: "version_conflict",
        current: 2,
      },
    ]);
    expect(await versions(e.id)).toEqual([
      [2, false, "saved by hand"],
      [1, false, null],
    ]);
  });

  test("autosave must be true or false", async () => {
    const e = await create({ title: "Flag" });
    const r = await h.json("PATCH", `/v2/model-instances/${e.id}?autosave=yes`, { token, body: { data: { body: "x" } } });
    expect([r.status, r.body]).toEqual([400, { error: "autosave must be true or false", code: "invalid_body", field: "autosave" }]);
    expect(await versions(e.id)).toEqual([[1, false, null]]);
  });
});

describe("POST /v2/model-instances/:id/duplicate", () => {
  test("a new draft with the latest draft's values and tags; unique values emptied; the slug moved on", async () => {
    const e = await create({ title: "Original", isbn: "978-1", body: "text" }, ["x", "y"]);
    await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token });
    await patch(e.id, { data: { body: "newer draft" } });
    h.clock.advance(1000);
    const r = await h.json("POST", `/v2/model-instances/${e.id}/duplicate`, { token });
    expect(r.status).toBe(201);
    const now = new Date(h.clock.now()).toISOString();
    expect(r.body).toEqual({
      id: r.body.id,
      model: "post",
      modelId: e.modelId,
      status: "draft",
      createdAt: now,
      updatedAt: now,
      publishedAt: null,
      version: 1,
      publishedVersion: null,
      tags: ["x", "y"],
      folder: null,
      draft: { versionId: r.body.draft.versionId, version: 1, data: { title: "Original", slug: "original-2", isbn: null, body: "newer draft" } },
      published: null,
    });
    expect(r.body.id).not.toBe(e.id);
    // A copy of the copy: `original-2` becomes `original-3`, not `original-2-2`.
    const again = await h.json("POST", `/v2/model-instances/${r.body.id}/duplicate`, { token });
    expect(again.body.draft.data.slug).toBe("original-3");
  });

  test("a single-entry model has no room for a copy; an entry in the trash cannot be copied", async () => {
    await h.json("POST", "/v2/models", {
      token,
      body: { name: "Settings", namespace: "settings", singleEntry: true, fields: [{ namespace: "site", type: "string" }] },
    });
    const s = (await h.json("POST", "/v2/model-instances", { token, body: { model: "settings", data: { site: "A" } } })).body;
    const r = await h.json("POST", `/v2/model-instances/${s.id}/duplicate`, { token });
    expect([r.status, r.body]).toEqual([409, { error: "The model settings holds a single entry, so it cannot be duplicated.", code: "conflict", field: "id" }]);
    expect((await h.json("GET", "/v2/model-instances?model=settings", { token })).body.total).toBe(1);
    const gone = await create({ title: "Gone" });
    await h.json("DELETE", `/v2/model-instances/${gone.id}`, { token });
    expect((await h.json("POST", `/v2/model-instances/${gone.id}/duplicate`, { token })).body.code).toBe("entry_in_trash");
  });

  test("a viewer may not duplicate", async () => {
    await addMember(h, token, pid, "vi@example.com", "viewer", "member-password-1");
    const vi = (await h.json("POST", "/v2/user/login", { body: { email: "vi@example.com", password: "member-password-1" } })).body.accessToken;
    const e = await create({ title: "Viewed" });
    const r = await h.json("POST", `/v2/model-instances/${e.id}/duplicate`, { token: vi, headers: { "x-svc-project": pid } });
    expect([r.status, r.body]).toEqual([403, { error: "Insufficient permissions", required: ["owner", "admin", "developer", "editor"], current: "viewer" }]);
  });
});
