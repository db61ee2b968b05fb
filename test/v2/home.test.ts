// The home screen's request and the command palette's search (issue 27, home and media library):
// GET /v2/home and GET /v2/search, each answer whole.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { memberToken } from "../api/helpers.ts";
import { answerProblems } from "../openapi/answer-check.ts";
import { png64 } from "../media/fixtures.ts";

let h: Harness;
let token: string;
let pid: string;
let slug: string;

const as = (t = token) => ({ token: t, headers: { "x-svc-project": pid } });

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  pid = o.project.id;
  slug = o.project.slug;
});
afterAll(() => h.close());

describe("GET /v2/home", () => {
  test("a new project: the three first steps, done one by one", async () => {
    const r = await h.json("GET", "/v2/home", as());
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      projects: [{ id: pid, name: "Test Project", slug, role: "owner", lastOpenedAt: "2026-11-21T12:00:00.000Z" }],
      canCreateProjects: true,
      project: { id: pid, name: "Test Project", slug, role: "owner" },
      recentEntries: [],
      scheduled: [],
      failedDeliveries: { total: 0, data: [] },
      firstSteps: { model: false, entry: false, key: false, done: false },
    });
    expect(answerProblems(h.capa, "GET", "/v2/home", 200, r.body)).toEqual([]);
    await h.json("POST", "/v2/models", { ...as(), body: { name: "Note", namespace: "note", fields: [{ namespace: "title", type: "string" }] } });
    expect((await h.json("GET", "/v2/home", as())).body.firstSteps).toEqual({ model: true, entry: false, key: false, done: false });
    await h.json("POST", "/v2/model-instances", { ...as(), body: { model: "note", data: { title: "First" } } });
    expect((await h.json("GET", "/v2/home", as())).body.firstSteps).toEqual({ model: true, entry: true, key: false, done: false });
    await h.json("POST", "/v2/tenants/api-keys", { ...as(), body: { scopes: ["instance:read"] } });
    expect((await h.json("GET", "/v2/home", as())).body.firstSteps).toEqual({ model: true, entry: true, key: true, done: true });
  });

  test("recent entries: the person's own saves, each entry once, newest first, none in the trash", async () => {
    const make = async (title: string) => (await h.json("POST", "/v2/model-instances", { ...as(), body: { model: "note", data: { title } } })).body;
    h.clock.advance(1000);
    const a = await make("Alpha");
    h.clock.advance(1000);
    await make("Bravo");
    h.clock.advance(1000);
    await h.json("PATCH", `/v2/model-instances/${a.id}`, { ...as(), body: { data: { title: "Alpha, again" } } });
    const gone = await make("Gone");
    await h.json("DELETE", `/v2/model-instances/${gone.id}`, as());
    // Someone else's save is not the person's work.
    const editor = await memberToken(h, token, pid, "editor@example.com", "editor");
    h.clock.advance(1000);
    await h.json("POST", "/v2/model-instances", { ...as(editor), body: { model: "note", data: { title: "By the editor" } } });
    const recent = (await h.json("GET", "/v2/home", as())).body.recentEntries;
    expect(recent.map((e: { title: string }) => e.title)).toEqual(["Alpha, again", "Bravo", "First"]);
    expect(recent[0]).toEqual({
      id: a.id,
      model: "note",
      modelName: "Note",
      title: "Alpha, again",
      status: "draft",
      updatedAt: "2026-11-21T12:00:03.000Z",
      editedAt: "2026-11-21T12:00:03.000Z",
    });
    const theirs = (await h.json("GET", "/v2/home", as(editor))).body;
    expect(theirs.recentEntries.map((e: { title: string }) => e.title)).toEqual(["By the editor"]);
    // An editor does not see webhooks: failed deliveries are null, not an empty list.
    expect([theirs.project.role, theirs.failedDeliveries]).toEqual(["editor", null]);
  });

  test("scheduled actions coming up, soonest first, with their target", async () => {
    const n = (await h.json("POST", "/v2/model-instances", { ...as(), body: { model: "note", data: { title: "Later" } } })).body;
    const soon = (await h.json("POST", "/v2/model-instances", { ...as(), body: { model: "note", data: { title: "Sooner" } } })).body;
    const at = async (id: string, wallTime: string) =>
      h.json("POST", "/v2/scheduled-actions", { ...as(), body: { action: "publish", targets: [{ type: "instance", id }], wallTime, timezone: "UTC" } });
    const later = (await at(n.id, "2026-12-01T09:00")).body;
    const sooner = (await at(soon.id, "2026-11-25T09:00")).body;
    const scheduled = (await h.json("GET", "/v2/home", as())).body.scheduled;
    expect(scheduled).toEqual([
      {
        id: sooner.actions[0].id,
        action: "publish",
        runAt: "2026-11-25T09:00:00.000Z",
        batchId: sooner.batchId,
        target: { type: "instance", id: soon.id, model: "note", title: "Sooner" },
      },
      {
        id: later.actions[0].id,
        action: "publish",
        runAt: "2026-12-01T09:00:00.000Z",
        batchId: later.batchId,
        target: { type: "instance", id: n.id, model: "note", title: "Later" },
      },
    ]);
  });

  test("a person without a project: the lists are empty and the project is null", async () => {
    const { createUser } = await import("../../src/domain/users/service.ts");
    createUser(h.capa.services, { email: "lonely@example.com", password: "lonely-password-1" });
    const login = await h.json("POST", "/v2/user/login", { body: { email: "lonely@example.com", password: "lonely-password-1" } });
    const r = await h.json("GET", "/v2/home", { token: login.body.accessToken });
    expect([r.status, r.body]).toEqual([
      200,
      { projects: [], canCreateProjects: false, project: null, recentEntries: [], scheduled: [], failedDeliveries: null, firstSteps: null },
    ]);
    expect((await h.json("GET", "/v2/home")).status).toBe(401);
  });
});

describe("GET /v2/search", () => {
  test("entries by title across models, and media by file name, title and alt", async () => {
    await h.json("POST", "/v2/models", { ...as(), body: { name: "Page", namespace: "page", fields: [{ namespace: "heading", type: "string" }] } });
    const page = (await h.json("POST", "/v2/model-instances", { ...as(), body: { model: "page", data: { heading: "Harbour walk" } } })).body;
    h.clock.advance(1000);
    const note = (await h.json("POST", "/v2/model-instances", { ...as(), body: { model: "note", data: { title: "harbour notes" } } })).body;
    const fd = new FormData();
    fd.append("file", new Blob([(await png64()) as BlobPart]), "boats.png");
    fd.append("alt", "Boats in the harbour");
    const file = (await h.json("POST", "/v2/media", { raw: fd, ...as() })).body;
    const r = await h.json("GET", "/v2/search?q=HARBOUR", as());
    expect(r.status).toBe(200);
    expect(r.body.entries).toEqual([
      { id: note.id, model: "note", modelName: "Note", title: "harbour notes", status: "draft", updatedAt: note.updatedAt },
      { id: page.id, model: "page", modelName: "Page", title: "Harbour walk", status: "draft", updatedAt: page.updatedAt },
    ]);
    expect(r.body.media).toEqual([
      { ...file, thumbnail: { url: `${file.url}?w=160&fm=webp`, srcset: `${file.url}?w=160&fm=webp 160w, ${file.url}?w=320&fm=webp 320w` } },
    ]);
    expect(answerProblems(h.capa, "GET", "/v2/search", 200, r.body)).toEqual([]);
    expect((await h.json("GET", "/v2/search?q=boats.png", as())).body.media.map((m: { id: string }) => m.id)).toEqual([file.id]);
    expect((await h.json("GET", "/v2/search?q=harbour&limit=1", as())).body.entries).toHaveLength(1);
  });

  test("refusals name the parameter", async () => {
    const blank = await h.json("GET", "/v2/search?q=%20", as());
    expect([blank.status, blank.body]).toEqual([400, { error: "q must be a text of 1 to 200 characters", code: "invalid_body", field: "q" }]);
    const limit = await h.json("GET", "/v2/search?q=x&limit=51", as());
    expect([limit.status, limit.body]).toEqual([400, { error: "limit must be a whole number from 1 to 50", code: "invalid_body", field: "limit" }]);
  });
});
