// The trash (decisions.md 15; docs/editing.md, "The trash"): DELETE moves an entry there and it
// leaves every read at once (/api answers 404 entry_not_found, relations to it read as missing
// references in REST and GraphQL, instance.deleted fires); GET /v2/trash lists it; restore brings
// it back as it was and fires instance.restored (a slug taken meanwhile gets a new value, said in
// the answer); DELETE /v2/trash/:id and the purge job after CAPA_TRASH_DAYS delete it for ever.
// Also GET /v2/model-instances/:id/usage, which the app asks before a delete.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { addMember } from "../api/helpers.ts";

const DAY = 24 * 3600_000;
let h: Harness;
let token: string;
let userId: string;
let pid: string;
let prod: string;
let dev: string;
let author: any;
let article: any;
beforeAll(async () => {
  h = startApp({ trashDays: 2 });
  const owner = await withOwner(h);
  token = owner.token;
  userId = owner.user.id;
  pid = (await h.json("GET", "/v2/projects", { token })).body.data[0].id;
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await h.json(method, path, { token, body });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  await ok("POST", "/v2/models", {
    name: "Author",
    namespace: "author",
    fields: [
      { namespace: "name", type: "string" },
      { namespace: "slug", type: "string", slug: { from: "name" } },
      { namespace: "email", type: "string", unique: true },
    ],
  });
  await ok("POST", "/v2/models", {
    name: "Article",
    namespace: "article",
    fields: [
      { namespace: "title", type: "string" },
      { namespace: "author", type: "relation", relation: "author" },
      { namespace: "coauthors", type: "array", arrayType: "relation", relation: "author" },
    ],
  });
  author = await ok("POST", "/v2/model-instances", { model: "author", data: { name: "Ann Lee", email: "ann@example.com" }, tags: ["staff"] });
  await ok("POST", `/v2/model-instances/${author.id}/publish`);
  await ok("PATCH", `/v2/model-instances/${author.id}`, { data: { name: "Ann B. Lee" } });
  article = await ok("POST", "/v2/model-instances", { model: "article", data: { title: "Hello", author: author.id, coauthors: [author.id] } });
  await ok("POST", `/v2/model-instances/${article.id}/publish`);
  prod = (await ok("POST", "/v2/tenants/api-keys", { scopes: ["instance:read"], environment: "production" })).apiKey;
  dev = (await ok("POST", "/v2/tenants/api-keys", { scopes: ["instance:read"], environment: "development" })).apiKey;
});
afterAll(() => h.close());

/** Access tokens last 24 hours on the injected clock: after moving it by days, sign in again. */
const signIn = async () => {
  token = (await h.json("POST", "/v2/user/login", { body: { email: "owner@example.com", password: "owner-password-1" } })).body.accessToken;
};
const api = (path: string, key: string) => h.json("GET", path, { headers: { "x-api-key": key } });
const file = () => h.capa.services.projects.get(pid).sqlite;
const eventsOf = (type: string) =>
  (file().query("SELECT body FROM events WHERE type = ? ORDER BY seq").all(type) as { body: string }[]).map((r) => JSON.parse(r.body));

describe("usage before a delete", () => {
  test("GET /v2/model-instances/:id/usage lists the entries that relate to it, through which fields and copies", async () => {
    const r = await h.json("GET", `/v2/model-instances/${author.id}/usage`, { token });
    expect([r.status, r.body]).toEqual([
      200,
      {
        entries: [
          { id: article.id, modelId: article.modelId, namespace: "article", title: "Hello", copies: ["draft", "published"], fields: ["author", "coauthors"] },
        ],
      },
    ]);
    expect((await h.json("GET", `/v2/model-instances/${article.id}/usage`, { token })).body).toEqual({ entries: [] });
  });
});

describe("DELETE moves the entry to the trash", () => {
  let livedAt: string;
  let versionsBefore: unknown;
  beforeAll(async () => {
    versionsBefore = (await h.json("GET", `/v2/model-instances/${author.id}/versions`, { token })).body;
    h.clock.advance(1000);
    livedAt = new Date(h.clock.now()).toISOString();
    expect((await h.json("DELETE", `/v2/model-instances/${author.id}`, { token })).status).toBe(204);
  });

  test("it leaves /api at once: 404 entry_not_found for both keys, and the list", async () => {
    for (const key of [prod, dev]) {
      const one = await api(`/api/entries/author/${author.id}`, key);
      expect([one.status, one.body.error.code]).toEqual([404, "entry_not_found"]);
      expect((await api("/api/entries/author", key)).body.data).toEqual([]);
    }
  });

  test("relations to it read as missing references, in REST and in GraphQL", async () => {
    const r = await api(`/api/entries/article/${article.id}?select=title,author(name),coauthors(name)`, prod);
    expect(r.body.data).toEqual({ id: article.id, title: "Hello", author: null, coauthors: [] });
    expect(r.body.meta.missingReferences).toEqual([author.id]);
    const q = await h.json("POST", "/api/graphql", {
      headers: { "x-api-key": prod },
      body: { query: `{ articleById(id: "${article.id}") { title author { name } } }` },
    });
    expect(q.body.data).toEqual({ articleById: { title: "Hello", author: null } });
    expect(q.body.extensions.missingReferences).toEqual([author.id]);
    const node = await h.json("POST", "/api/graphql", { headers: { "x-api-key": dev }, body: { query: `{ node(id: "${author.id}") { id } }` } });
    expect(node.body.data).toEqual({ node: null });
  });

  test("every entry route answers 404 entry_in_trash; the management list and usage leave it out", async () => {
    const r = await h.json("GET", `/v2/model-instances/${author.id}`, { token });
    expect([r.status, r.body]).toEqual([404, { error: "The entry is in the trash.", code: "entry_in_trash", id: author.id, deletedAt: livedAt }]);
    expect((await h.json("GET", "/v2/model-instances?model=author", { token })).body.total).toBe(0);
    // A relation may no longer be written to it.
    const rel = await h.json("PATCH", `/v2/model-instances/${article.id}`, { token, body: { data: { author: author.id } } });
    expect(rel.body).toEqual({
      error: `data.author names ${author.id}, which is not an entry of the related model`,
      code: "invalid_body",
      field: "data.author",
    });
  });

  test("bulk and scheduling selections leave it out, and name it no entry of the project", async () => {
    const bulk = await h.json("POST", "/v2/model-instances/bulk-publish", { token, body: { instanceIds: [author.id] } });
    expect([bulk.status, bulk.body]).toEqual([
      400,
      { error: `instanceIds[0] ${author.id} is not an entry of this project`, code: "invalid_body", field: "instanceIds[0]" },
    ]);
    expect((await h.json("POST", "/v2/model-instances/bulk-publish", { token, body: { modelId: "author", dryRun: true } })).body.count).toBe(0);
    const wallTime = new Date(h.clock.now() + 3_600_000).toISOString().slice(0, 16);
    const sched = await h.json("POST", "/v2/scheduled-actions", {
      token,
      body: { action: "publish", timezone: "UTC", wallTime, targets: [{ type: "instance", id: author.id }] },
    });
    expect([sched.status, sched.body.field]).toEqual([400, "targets[0].id"]);
  });

  test("instance.deleted fired as before", () => {
    const [e] = eventsOf("instance.deleted");
    expect(e.data).toEqual({ instanceId: author.id, modelId: author.modelId, namespace: "author" });
  });

  test("GET /v2/trash lists it, and GET /v2/trash/:id reads it", async () => {
    const item = {
      id: author.id,
      model: "author",
      modelId: author.modelId,
      title: "Ann B. Lee",
      status: "changed",
      deletedAt: livedAt,
      deletedBy: `user:${userId}`,
    };
    const list = await h.json("GET", "/v2/trash?model=author", { token });
    expect([list.status, list.body]).toEqual([200, { data: [item], limit: 25, total: 1, next: null }]);
    expect((await h.json("GET", `/v2/trash/${author.id}`, { token })).body).toEqual(item);
    expect((await h.json("GET", "/v2/trash?model=article", { token })).body).toEqual({ data: [], limit: 25, total: 0, next: null });
    const notThere = await h.json("GET", `/v2/trash/${article.id}`, { token });
    expect([notThere.status, notThere.body]).toEqual([404, { error: "The entry is not in the trash.", code: "not_found" }]);
  });

  test("a viewer reads the trash but may not restore or delete for ever", async () => {
    await addMember(h, token, pid, "vi@example.com", "viewer", "member-password-1");
    const vi = (await h.json("POST", "/v2/user/login", { body: { email: "vi@example.com", password: "member-password-1" } })).body.accessToken;
    const headers = { "x-svc-project": pid };
    expect((await h.json("GET", "/v2/trash", { token: vi, headers })).status).toBe(200);
    const denied = { error: "Insufficient permissions", required: ["owner", "admin", "developer", "editor"], current: "viewer" };
    expect((await h.json("POST", `/v2/trash/${author.id}/restore`, { token: vi, headers })).body).toEqual(denied);
    expect((await h.json("DELETE", `/v2/trash/${author.id}`, { token: vi, headers })).body).toEqual(denied);
  });

  test("restore brings it back as it was, with its versions and tags, and fires instance.restored", async () => {
    const r = await h.json("POST", `/v2/trash/${author.id}/restore`, { token });
    expect(r.status).toBe(200);
    const { slugsChanged, ...record } = r.body;
    expect(slugsChanged).toEqual([]);
    expect(record).toMatchObject({ id: author.id, status: "changed", version: 2, publishedVersion: 1, tags: ["staff"] });
    expect((await h.json("GET", `/v2/model-instances/${author.id}/versions`, { token })).body).toEqual(versionsBefore);
    expect((await api(`/api/entries/author/${author.id}`, prod)).status).toBe(200);
    const [e] = eventsOf("instance.restored");
    expect(e).toMatchObject({
      type: "instance.restored",
      actor: { kind: "user", id: userId },
      data: { instanceId: author.id, modelId: author.modelId, namespace: "author", status: "changed", title: "Ann B. Lee" },
      links: { self: `http://127.0.0.1:3000/v2/agent/model-instances/${author.id}` },
    });
    expect((await h.json("GET", "/v2/trash", { token })).body.total).toBe(0);
  });
});

describe("restoring when others took its values meanwhile", () => {
  test("a slug taken meanwhile gets a new unique value in both copies, said in the answer", async () => {
    const bob = (await h.json("POST", "/v2/model-instances", { token, body: { model: "author", data: { name: "Bob" } } })).body;
    await h.json("POST", `/v2/model-instances/${bob.id}/publish`, { token });
    await h.json("DELETE", `/v2/model-instances/${bob.id}`, { token });
    const taker = (await h.json("POST", "/v2/model-instances", { token, body: { model: "author", data: { name: "Bob" } } })).body;
    expect(taker.draft.data.slug).toBe("bob");
    const r = await h.json("POST", `/v2/trash/${bob.id}/restore`, { token });
    expect(r.body.slugsChanged).toEqual([
      { field: "data.slug", copy: "draft", from: "bob", to: "bob-2" },
      { field: "data.slug", copy: "published", from: "bob", to: "bob-2" },
    ]);
    expect([r.body.draft.data.slug, r.body.published.data.slug, r.body.status]).toEqual(["bob-2", "bob-2", "published"]);
    const v = (await h.json("GET", `/v2/model-instances/${bob.id}/versions`, { token })).body.data;
    expect(v.map((x: any) => x.data.slug)).toEqual(["bob-2"]);
  });

  test("another unique value taken meanwhile: 409 not_unique, and the entry stays in the trash", async () => {
    const cy = (await h.json("POST", "/v2/model-instances", { token, body: { model: "author", data: { name: "Cy", email: "cy@example.com" } } })).body;
    await h.json("DELETE", `/v2/model-instances/${cy.id}`, { token });
    const taker = (await h.json("POST", "/v2/model-instances", { token, body: { model: "author", data: { name: "Cy two", email: "cy@example.com" } } })).body;
    const r = await h.json("POST", `/v2/trash/${cy.id}/restore`, { token });
    expect([r.status, r.body]).toEqual([
      409,
      { error: 'email must be unique: another entry of this model already has "cy@example.com".', code: "not_unique", field: "data.email", entryId: taker.id },
    ]);
    expect((await h.json("GET", `/v2/trash/${cy.id}`, { token })).status).toBe(200);
  });

  test("a single-entry model whose place was taken", async () => {
    await h.json("POST", "/v2/models", {
      token,
      body: { name: "Settings", namespace: "settings", singleEntry: true, fields: [{ namespace: "site", type: "string" }] },
    });
    const first = (await h.json("POST", "/v2/model-instances", { token, body: { model: "settings", data: { site: "A" } } })).body;
    await h.json("DELETE", `/v2/model-instances/${first.id}`, { token });
    // The trashed entry holds no place: a new one can be made.
    expect((await h.json("POST", "/v2/model-instances", { token, body: { model: "settings", data: { site: "B" } } })).status).toBe(201);
    const r = await h.json("POST", `/v2/trash/${first.id}/restore`, { token });
    expect([r.status, r.body]).toEqual([409, { error: "The model settings holds a single entry, and another exists now.", code: "conflict", field: "id" }]);
  });
});

describe("deleting for ever", () => {
  test("DELETE /v2/trash/:id removes the entry and its versions", async () => {
    const e = (await h.json("POST", "/v2/model-instances", { token, body: { model: "article", data: { title: "Bye" } } })).body;
    expect((await h.json("DELETE", `/v2/trash/${e.id}`, { token })).body).toEqual({ error: "The entry is not in the trash.", code: "not_found" });
    await h.json("DELETE", `/v2/model-instances/${e.id}`, { token });
    expect((await h.json("DELETE", `/v2/trash/${e.id}`, { token })).status).toBe(204);
    expect(
      file().query("SELECT (SELECT count(*) FROM entries WHERE id = ?1) AS e, (SELECT count(*) FROM entry_versions WHERE entry_id = ?1) AS v").get(e.id),
    ).toEqual({ e: 0, v: 0 });
    expect((await h.json("GET", `/v2/model-instances/${e.id}`, { token })).body).toEqual({ error: "No such entry.", code: "not_found" });
  });

  test("the trash job deletes entries trashed more than CAPA_TRASH_DAYS ago, and only those", async () => {
    const make = async (title: string) =>
      (await h.json("POST", "/v2/model-instances", { token, body: { model: "article", data: { title } } })).body.id as string;
    const old = await make("Old");
    await h.json("DELETE", `/v2/model-instances/${old}`, { token });
    h.clock.advance(DAY);
    await signIn();
    const young = await make("Young");
    await h.json("DELETE", `/v2/model-instances/${young}`, { token });
    h.clock.advance(DAY - 1000);
    await signIn();
    await h.capa.jobs.runNow("trash");
    expect((await h.json("GET", `/v2/trash/${old}`, { token })).status).toBe(200);
    h.clock.advance(1000);
    await h.capa.jobs.runNow("trash");
    expect((await h.json("GET", `/v2/trash/${old}`, { token })).status).toBe(404);
    expect((await h.json("GET", `/v2/trash/${young}`, { token })).status).toBe(200);
    h.clock.advance(DAY);
    await signIn();
    await h.capa.jobs.runNow("trash");
    expect((await h.json("GET", "/v2/trash?model=article", { token })).body.total).toBe(0);
  });
});

describe("the trash list pages by cursor", () => {
  test("most recently deleted first, `next` until the end; a bad cursor is refused", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = (await h.json("POST", "/v2/model-instances", { token, body: { model: "article", data: { title: `P${i}` } } })).body.id;
      h.clock.advance(1000);
      await h.json("DELETE", `/v2/model-instances/${id}`, { token });
      ids.push(id);
    }
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const r: any = await h.json("GET", `/v2/trash?model=article&limit=2${next ? `&after=${next}` : ""}`, { token });
      expect(r.body.total).toBe(5);
      seen.push(...r.body.data.map((x: any) => x.id));
      next = r.body.next;
    } while (next);
    expect(seen).toEqual([...ids].reverse());
    const bad = await h.json("GET", "/v2/trash?after=nope", { token });
    expect([bad.status, bad.body]).toEqual([
      400,
      { error: "after must be the `next` cursor of a previous page of the trash", code: "invalid_body", field: "after" },
    ]);
  });
});
