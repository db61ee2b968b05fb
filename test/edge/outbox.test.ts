// What purges what (decisions.md 14; src/domain/edge/changes.ts): each change writes, in its own
// transaction, one purge row per target with exactly its tags: into the project file for entries,
// models and media, into the control file for keys and projects. A refused or rolled-back change
// writes none, and without CAPA_EDGE_PURGE nothing is ever written.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { runDueActions } from "../../src/domain/scheduling/runner.ts";
import { setSubscription } from "../../src/domain/projects/service.ts";
import { write } from "../../src/domain/unit-of-work.ts";
import { png64 } from "../media/fixtures.ts";
import { clearOutbox, edgeConfig, edgeProject, outbox, type EdgeProject } from "./fixture.ts";

const V1 = "varnish:http://127.0.0.1:6081/";
const V2 = "varnish:http://127.0.0.1:6082/";
let p: EdgeProject;

/** The rows one change writes: the same tags for each of the two targets. */
const both = (tags: string[]) => [expect.objectContaining({ target: V1, tags, attempts: 0 }), expect.objectContaining({ target: V2, tags, attempts: 0 })];

beforeAll(async () => {
  p = await edgeProject(edgeConfig({ CAPA_EDGE_PURGE: "varnish:http://127.0.0.1:6081,http://127.0.0.1:6082" }));
});
afterAll(() => p.h.close());
beforeEach(() => clearOutbox(p));

describe("entries", () => {
  test("publish, unpublish and delete purge the entry and its model; a draft's delete purges nothing", async () => {
    const id = await p.post("One");
    const tags = [`entry:${id}`, "model:post"];
    expect(outbox(p)).toEqual({ project: both(tags), control: [] });
    clearOutbox(p);
    await p.ok("POST", `/v2/model-instances/${id}/unpublish`);
    expect(outbox(p).project).toEqual(both(tags));
    clearOutbox(p);
    await p.ok("POST", `/v2/model-instances/${id}/publish`);
    await p.ok("DELETE", `/v2/model-instances/${id}`);
    expect(outbox(p).project).toEqual([...both(tags), ...both(tags)]);
    clearOutbox(p);
    const draft = (await p.ok("POST", "/v2/model-instances", { model: "post", data: { title: "Draft" } })).id;
    await p.ok("DELETE", `/v2/model-instances/${draft}`);
    // Saving a draft purges nothing either: production answers never show it.
    await p.ok("PATCH", `/v2/model-instances/${(await p.ok("POST", "/v2/model-instances", { model: "post", data: { title: "D2" } })).id}`, {
      data: { title: "D3" },
    });
    expect(outbox(p)).toEqual({ project: [], control: [] });
  });

  test("a published entry's move to the trash and its restore purge it; deleting it for ever from the trash purges nothing more", async () => {
    const id = await p.post("Trashed");
    const tags = [`entry:${id}`, "model:post"];
    clearOutbox(p);
    await p.ok("DELETE", `/v2/model-instances/${id}`);
    expect(outbox(p).project).toEqual(both(tags));
    clearOutbox(p);
    await p.ok("POST", `/v2/trash/${id}/restore`);
    expect(outbox(p).project).toEqual(both(tags));
    await p.ok("DELETE", `/v2/model-instances/${id}`);
    clearOutbox(p);
    expect((await p.h.json("DELETE", `/v2/trash/${id}`, p.as())).status).toBe(204);
    expect(outbox(p)).toEqual({ project: [], control: [] });
  });

  test("a scheduled action's run and a bulk publish purge through the same publish", async () => {
    const id = (await p.ok("POST", "/v2/model-instances", { model: "post", data: { title: "Later" } })).id;
    const at = await p.ok("POST", "/v2/scheduled-actions", {
      action: "publish",
      targets: [{ type: "instance", id }],
      wallTime: "2026-11-21T12:10:00",
      timezone: "UTC",
    });
    expect(at.actions).toHaveLength(1);
    expect(outbox(p).project).toEqual([]);
    p.h.clock.advance(10 * 60_000);
    expect(runDueActions(p.h.capa.services, p.h.clock.now())).toBe(1);
    expect(outbox(p).project).toEqual(both([`entry:${id}`, "model:post"]));
    clearOutbox(p);
    const ids: string[] = [];
    for (const t of ["B1", "B2"]) ids.push((await p.ok("POST", "/v2/model-instances", { model: "post", data: { title: t } })).id);
    await p.ok("POST", "/v2/model-instances/bulk-publish", { instanceIds: ids });
    expect(outbox(p).project).toEqual([...both([`entry:${ids[0]}`, "model:post"]), ...both([`entry:${ids[1]}`, "model:post"])]);
  });

  test("a refused publish and a rolled-back unit write no purge", async () => {
    const id = await p.post("Kept");
    clearOutbox(p);
    const r = await p.h.json("POST", `/v2/model-instances/${id}/publish`, { ...p.as(), body: { versionId: "not-a-uuid" } });
    expect(r.status).toBe(400);
    const h = p.h.capa.services.projects.get(p.projectId);
    expect(() =>
      write(p.h.capa.services, h, (tx) => {
        tx.purge(["entry:x"]);
        throw new Error("rolled back");
      }),
    ).toThrow("rolled back");
    expect(outbox(p)).toEqual({ project: [], control: [] });
  });
});

describe("models", () => {
  test("creating, editing and deleting a model purge it and the project's GraphQL answers", async () => {
    const m = await p.ok("POST", "/v2/models", { name: "News", namespace: "news", fields: [{ namespace: "title", type: "string" }] });
    const tags = ["model:news", `schema:${p.projectId}`];
    expect(outbox(p).project).toEqual(both(tags));
    clearOutbox(p);
    await p.ok("PATCH", `/v2/models/${m.id}`, { name: "News items" });
    expect(outbox(p).project).toEqual(both(tags));
    clearOutbox(p);
    await p.ok("DELETE", `/v2/models/${m.id}`, { namespace: "news" });
    expect(outbox(p).project).toEqual(both(tags));
  });
});

describe("media", () => {
  test("an alt or filename edit and a forced delete purge the entries whose published copy shows the file; a title edit does not", async () => {
    const fd = new FormData();
    fd.append("file", new Blob([(await png64()) as BlobPart]), "cover.png");
    const file = (await p.h.json("POST", "/v2/media", { raw: fd, ...p.as() })).body;
    const shown = await p.post("Shows it", { cover: { id: file.id } });
    // A draft that uses the file is not at the edge.
    await p.ok("POST", "/v2/model-instances", { model: "post", data: { title: "Draft user", cover: { id: file.id } } });
    clearOutbox(p);
    const tags = [`entry:${shown}`, "model:post"];
    await p.ok("PATCH", `/v2/media/${file.id}`, { title: "Only the library shows this" });
    expect(outbox(p).project).toEqual([]);
    await p.ok("PATCH", `/v2/media/${file.id}`, { alt: "A new alt" });
    expect(outbox(p).project).toEqual(both(tags));
    clearOutbox(p);
    await p.ok("PATCH", `/v2/media/${file.id}`, { filename: "renamed.png" });
    expect(outbox(p).project).toEqual(both(tags));
    clearOutbox(p);
    const del = await p.h.json("DELETE", `/v2/media/${file.id}?force=true`, p.as());
    expect(del.status).toBe(204);
    expect(outbox(p).project).toEqual(both(tags));
  });
});

describe("keys and projects (the control file)", () => {
  test("revoke, reactivate, rotate, scopes, expiry, version pin, origins and delete purge key:<id>; a rename does not", async () => {
    const k = await p.ok("POST", "/v2/tenants/api-keys", { name: "site", scopes: ["instance:read"], environment: "production" });
    const base = `/v2/tenants/api-keys/${k.id}`;
    const tags = [`key:${k.id}`];
    const changes: [string, string, unknown][] = [
      ["PATCH", `${base}/active`, { active: false }],
      ["PATCH", `${base}/active`, { active: true }],
      ["PATCH", base, { scopes: ["instance:read", "model:read"] }],
      ["PATCH", base, { expiresAt: new Date(p.h.clock.now() + 48 * 3600_000).toISOString() }],
      ["PATCH", base, { apiVersion: "2026-10-01" }],
      ["PATCH", `${base}/allowed-origins`, { allowedOrigins: ["https://site.example.com"] }],
      ["POST", `${base}/rotate`, { graceHours: 1 }],
      ["DELETE", base, undefined],
    ];
    for (const [method, path, body] of changes) {
      const r = await p.h.json(method, path, { ...p.as(), body });
      expect({ path, body, status: r.status < 300 }).toEqual({ path, body, status: true });
      expect({ path, body, rows: outbox(p) }).toEqual({ path, body, rows: { project: [], control: both(tags) } });
      clearOutbox(p);
    }
    const other = await p.ok("POST", "/v2/tenants/api-keys", { name: "other", scopes: ["instance:read"], environment: "production" });
    await p.ok("PATCH", `/v2/tenants/api-keys/${other.id}`, { name: "renamed" });
    expect(outbox(p)).toEqual({ project: [], control: [] });
  });

  test("a project's rename or slug, its subscription and its delete purge project:<id>", async () => {
    const tags = [`project:${p.projectId}`];
    await p.ok("PATCH", `/v2/projects/${p.projectId}`, { name: "Renamed" });
    expect(outbox(p).control).toEqual(both(tags));
    clearOutbox(p);
    setSubscription(p.h.capa.services, p.projectId, false);
    expect(outbox(p).control).toEqual(both(tags));
    setSubscription(p.h.capa.services, p.projectId, true);
    clearOutbox(p);
    const q = await edgeProject(edgeConfig({ CAPA_EDGE_PURGE: "fastly:abc" }));
    try {
      const slug = (await q.ok("GET", `/v2/projects/${q.projectId}`)).slug;
      const r = await q.h.json("DELETE", `/v2/projects/${q.projectId}`, { ...q.as(), body: { slug } });
      expect(r.status).toBe(204);
      expect(outbox(q).control).toEqual([expect.objectContaining({ target: "fastly:abc", tags: [`project:${q.projectId}`] })]);
    } finally {
      q.h.close();
    }
  });
});

test("without CAPA_EDGE_PURGE no change writes a purge row", async () => {
  const q = await edgeProject({});
  try {
    const id = await q.post("One");
    await q.ok("POST", `/v2/model-instances/${id}/unpublish`);
    const k = await q.ok("POST", "/v2/tenants/api-keys", { name: "site", scopes: ["instance:read"], environment: "production" });
    await q.ok("PATCH", `/v2/tenants/api-keys/${k.id}/active`, { active: false });
    expect(outbox(q)).toEqual({ project: [], control: [] });
  } finally {
    q.h.close();
  }
});
