// The Scheduled publishing routes of interface.md: create (targets 1-500, entries and models,
// another project's entries refused, versionId), the list and its filters, one action, a batch,
// the project's defaults and an entry's upcoming actions. Refusals write nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MIN, post, schedule, wallIn, world, type World } from "./helpers.ts";
import { addMember } from "../api/helpers.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("scheduling", () => {
  let w: World;
  let a: { id: string; draft: { versionId: string } };
  let b: { id: string };
  let editorToken: string;
  let modelId: string;
  beforeAll(async () => {
    w = await world();
    a = await post(w, "A");
    b = await post(w, "B");
    modelId = (await w.h.json("GET", "/v2/models/post", { token: w.token })).body.id;
    const m = await addMember(w.h, w.token, w.projectId, "ed@example.com", "editor", "editor-password-1");
    expect(m.status).toBe(201);
    editorToken = (await w.h.json("POST", "/v2/user/login", { body: { email: "ed@example.com", password: "editor-password-1" } })).body.accessToken;
  });
  afterAll(() => w.h.close());

  const total = async () => (await w.h.json("GET", "/v2/scheduled-actions?status=pending", { token: w.token })).body.total as number;

  test("201 with batchId, resolved, one action per target and replaced", async () => {
    const r = await w.h.json("POST", "/v2/scheduled-actions", {
      token: w.token,
      body: {
        action: "publish",
        targets: [
          { type: "instance", id: a.id },
          { type: "instance", id: b.id.toUpperCase() },
        ],
        wallTime: "2026-11-21T14:00",
        timezone: "Europe/Berlin",
      },
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body)).toEqual(["batchId", "resolved", "actions", "replaced"]);
    expect(r.body.batchId).toMatch(UUID);
    expect(r.body.resolved).toEqual({ at: "2026-11-21T13:00:00.000Z", offset: "+01:00" });
    expect(r.body.replaced).toEqual([]);
    expect(r.body.actions).toHaveLength(2);
    const [x, y] = r.body.actions;
    expect(x).toMatchObject({
      action: "publish",
      targets: [{ type: "instance", id: a.id }],
      wallTime: "2026-11-21T14:00",
      timezone: "Europe/Berlin",
      versionId: null,
      batchId: r.body.batchId,
      resolved: r.body.resolved,
      replaced: [],
      status: "pending",
      attempts: 0,
      retryOf: null,
      createdBy: { kind: "user", id: w.userId },
    });
    expect(y.targets).toEqual([{ type: "instance", id: b.id }]);
    expect(x.id).not.toBe(y.id);
  });

  test("13:00:30 in Berlin in November is 30 s after now (12:00 UTC): in_the_past", async () => {
    const r = await w.h.json("POST", "/v2/scheduled-actions", {
      token: w.token,
      body: { action: "unpublish", targets: [{ type: "instance", id: a.id }], wallTime: "2026-11-21T13:00:30", timezone: "Europe/Berlin" },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "in_the_past", field: "wallTime" });
  });

  test.each([
    ["no targets", { targets: [] }, "targets"],
    ["targets not a list", { targets: "x" }, "targets"],
    ["501 targets", { targets: Array.from({ length: 501 }, () => ({ type: "instance", id: crypto.randomUUID() })) }, "targets"],
    ["an unknown target type", { targets: [{ type: "page", id: "x" }] }, "targets[0].type"],
    ["a target without id", { targets: [{ type: "instance" }] }, "targets[0].id"],
    ["an unknown entry", { targets: [{ type: "instance", id: "00000000-0000-4000-8000-000000000000" }] }, "targets[0].id"],
    ["an unknown model", { targets: [{ type: "model", id: "nope" }] }, "targets[0].id"],
    [
      "the same entry twice",
      {
        targets: [
          { type: "instance", id: "A" },
          { type: "instance", id: "A" },
        ],
      },
      "targets[1].id",
    ],
    ["an unknown action", { action: "archive" }, "action"],
    ["an unknown body field", { color: "red" }, "color"],
  ])("%s is refused naming the field", async (_label, over, field) => {
    const before = await total();
    const targets = (over as { targets?: unknown }).targets;
    const fixed = Array.isArray(targets) ? targets.map((t) => (t.id === "A" ? { ...t, id: a.id } : t)) : targets;
    const body = {
      action: "publish",
      targets: [{ type: "instance", id: a.id }],
      wallTime: wallIn(w, 10 * MIN),
      timezone: "UTC",
      ...over,
      ...(targets !== undefined ? { targets: fixed } : {}),
    };
    const r = await w.h.json("POST", "/v2/scheduled-actions", { token: w.token, body });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "invalid_body", field });
    expect(await total()).toBe(before);
  });

  test("an entry of another project is refused, and nothing is written", async () => {
    const p2 = await w.h.json("POST", "/v2/projects", { token: w.token, body: { name: "Second" } });
    const headers = { "x-svc-project": p2.body.id };
    // Creating a project opens it; the rest of this file works in the first one.
    await w.h.json("PUT", "/v2/projects/current", { token: w.token, body: { projectId: w.projectId } });
    await w.h.json("POST", "/v2/models", {
      token: w.token,
      headers,
      body: { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] },
    });
    const foreign = await w.h.json("POST", "/v2/model-instances", { token: w.token, headers, body: { model: "post", data: { title: "Elsewhere" } } });
    expect(foreign.status).toBe(201);
    const before = await total();
    const r = await w.h.json("POST", "/v2/scheduled-actions", {
      token: w.token,
      body: {
        action: "publish",
        targets: [
          { type: "instance", id: a.id },
          { type: "instance", id: foreign.body.id },
        ],
        wallTime: wallIn(w, 10 * MIN),
        timezone: "UTC",
      },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "invalid_body", field: "targets[1].id" });
    expect(r.body.error).toContain("not an entry of this project");
    expect(await total()).toBe(before);
    // The same entry is fine in its own project.
    const own = await w.h.json("POST", "/v2/scheduled-actions", {
      token: w.token,
      headers,
      body: { action: "publish", targets: [{ type: "instance", id: foreign.body.id }], wallTime: wallIn(w, 10 * MIN), timezone: "UTC" },
    });
    expect(own.status).toBe(201);
  });

  test("500 targets are accepted", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 500; i++) ids.push((await post(w, `Bulk ${i}`)).id);
    const r = await schedule(w, { action: "unpublish", targets: ids.map((id) => ({ type: "instance", id })), wallTime: wallIn(w, 20 * MIN) });
    expect(r.actions).toHaveLength(500);
    expect(new Set(r.actions.map((x: { batchId: string }) => x.batchId))).toEqual(new Set([r.batchId]));
    const batch = await w.h.json("GET", `/v2/scheduled-actions/batch/${r.batchId}`, { token: w.token });
    expect(batch.body).toMatchObject({ batchId: r.batchId, total: 500, counts: { pending: 500, running: 0, done: 0, failed: 0, dead: 0, cancelled: 0 } });
    await w.h.json("POST", `/v2/scheduled-actions/batch/${r.batchId}/cancel`, { token: w.token });
  });

  test("a model target needs model:publish: an owner may, an editor may not", async () => {
    const refused = await w.h.json("POST", "/v2/scheduled-actions", {
      token: editorToken,
      headers: { "x-svc-project": w.projectId },
      body: { action: "publish", targets: [{ type: "model", id: "post" }], wallTime: wallIn(w, 10 * MIN), timezone: "UTC" },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "Insufficient permissions", required: ["owner", "admin", "developer"], current: "editor" });
    // The editor may schedule entries.
    const ok = await w.h.json("POST", "/v2/scheduled-actions", {
      token: editorToken,
      headers: { "x-svc-project": w.projectId },
      body: { action: "unpublish", targets: [{ type: "instance", id: b.id }], wallTime: wallIn(w, 10 * MIN), timezone: "UTC" },
    });
    expect(ok.status).toBe(201);
    const r = await schedule(w, { action: "publish", targets: [{ type: "model", id: "post" }], wallTime: wallIn(w, 10 * MIN) });
    expect(r.actions[0].targets).toEqual([{ type: "model", id: modelId }]);
  });

  test("versionId: one entry target, publish only, a version of that entry", async () => {
    const wall = wallIn(w, 10 * MIN);
    const bad = async (body: Record<string, unknown>) => {
      const r = await w.h.json("POST", "/v2/scheduled-actions", { token: w.token, body: { wallTime: wall, timezone: "UTC", ...body } });
      expect(r.status).toBe(400);
      expect(r.body.field).toBe("versionId");
    };
    await bad({
      action: "publish",
      versionId: a.draft.versionId,
      targets: [
        { type: "instance", id: a.id },
        { type: "instance", id: b.id },
      ],
    });
    await bad({ action: "unpublish", versionId: a.draft.versionId, targets: [{ type: "instance", id: a.id }] });
    await bad({ action: "publish", versionId: a.draft.versionId, targets: [{ type: "model", id: "post" }] });
    await bad({ action: "publish", versionId: "not-a-uuid", targets: [{ type: "instance", id: a.id }] });
    const bVersion = (await w.h.json("GET", `/v2/model-instances/${b.id}`, { token: w.token })).body.draft.versionId;
    await bad({ action: "publish", versionId: bVersion, targets: [{ type: "instance", id: a.id }] });
    const r = await schedule(w, { action: "publish", versionId: a.draft.versionId, targets: [{ type: "instance", id: a.id }], wallTime: wall });
    expect(r.actions[0].versionId).toBe(a.draft.versionId);
  });

  test("defaults: the project's publishing time zone, used when a request sends none", async () => {
    expect((await w.h.json("GET", "/v2/scheduled-actions/defaults", { token: w.token })).body).toEqual({ timezone: null });
    const none = await w.h.json("POST", "/v2/scheduled-actions", {
      token: w.token,
      body: { action: "publish", targets: [{ type: "instance", id: a.id }], wallTime: wallIn(w, 10 * MIN) },
    });
    expect(none.status).toBe(400);
    expect(none.body.field).toBe("timezone");

    const editor = await w.h.json("PUT", "/v2/scheduled-actions/defaults", {
      token: editorToken,
      headers: { "x-svc-project": w.projectId },
      body: { timezone: "Europe/Berlin" },
    });
    expect(editor.status).toBe(403);
    const badZone = await w.h.json("PUT", "/v2/scheduled-actions/defaults", { token: w.token, body: { timezone: "Europe/Atlantis" } });
    expect(badZone.status).toBe(400);
    expect(badZone.body.field).toBe("timezone");
    const set = await w.h.json("PUT", "/v2/scheduled-actions/defaults", { token: w.token, body: { timezone: "europe/berlin" } });
    expect(set.body).toEqual({ timezone: "Europe/Berlin" });
    expect((await w.h.json("GET", "/v2/scheduled-actions/defaults", { token: editorToken, headers: { "x-svc-project": w.projectId } })).body).toEqual({
      timezone: "Europe/Berlin",
    });

    const r = await w.h.json("POST", "/v2/scheduled-actions", {
      token: w.token,
      body: { action: "publish", targets: [{ type: "instance", id: a.id }], wallTime: "2026-11-21T14:00" },
    });
    expect(r.status).toBe(201);
    expect(r.body.actions[0]).toMatchObject({ timezone: "Europe/Berlin", resolved: { at: "2026-11-21T13:00:00.000Z", offset: "+01:00" } });
    await w.h.json("PUT", "/v2/scheduled-actions/defaults", { token: w.token, body: { timezone: null } });
    expect((await w.h.json("GET", "/v2/scheduled-actions/defaults", { token: w.token })).body).toEqual({ timezone: null });
  });

  test("one action, 404 for an unknown one, the entry's pending and running actions", async () => {
    const r = await schedule(w, { action: "unpublish", targets: [{ type: "instance", id: b.id }], wallTime: wallIn(w, 30 * MIN) });
    // The editor's pending unpublish of b was replaced; the publish of b stays (another kind).
    expect(r.replaced).toHaveLength(1);
    const one = await w.h.json("GET", `/v2/scheduled-actions/${r.actions[0].id}`, { token: w.token });
    expect(one.body).toEqual(r.actions[0]);
    expect((await w.h.json("GET", `/v2/scheduled-actions/${crypto.randomUUID()}`, { token: w.token })).status).toBe(404);
    expect((await w.h.json("GET", "/v2/scheduled-actions/nope", { token: w.token })).status).toBe(404);
    expect((await w.h.json("GET", `/v2/scheduled-actions/batch/${crypto.randomUUID()}`, { token: w.token })).status).toBe(404);

    const mine = await w.h.json("GET", `/v2/model-instances/${b.id}/scheduled`, { token: w.token });
    expect(mine.status).toBe(200);
    const kinds = mine.body.data.map((x: { targets: { type: string }[]; status: string }) => `${x.targets[0]!.type}:${x.status}`);
    // b's own publish and unpublish (at most one of each) and the whole model's publish.
    expect(kinds.sort()).toEqual(["instance:pending", "instance:pending", "model:pending"]);
    expect(mine.body.data.find((x: { id: string }) => x.id === r.actions[0].id)).toBeTruthy();
    expect((await w.h.json("GET", `/v2/model-instances/${crypto.randomUUID()}/scheduled`, { token: w.token })).status).toBe(404);
  });

  test("the list: filters, order, pages, limit up to 200", async () => {
    const all = await w.h.json("GET", "/v2/scheduled-actions?limit=200", { token: w.token });
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(["data", "page", "limit", "total"]);
    const times = all.body.data.map((x: { resolved: { at: string } }) => x.resolved.at);
    expect(times).toEqual([...times].sort());
    const desc = await w.h.json("GET", "/v2/scheduled-actions?order=desc&limit=5", { token: w.token });
    expect(desc.body.data[0].resolved.at >= desc.body.data[4].resolved.at).toBe(true);

    const byTarget = await w.h.json("GET", `/v2/scheduled-actions?targetId=${b.id}`, { token: w.token });
    expect(byTarget.body.data.every((x: { targets: { id: string }[] }) => x.targets[0]!.id === b.id)).toBe(true);
    expect(byTarget.body.total).toBeGreaterThanOrEqual(3);

    const pending = await w.h.json("GET", `/v2/scheduled-actions?targetId=${b.id}&status=pending`, { token: w.token });
    expect(pending.body.total).toBe(2);
    const both = await w.h.json("GET", `/v2/scheduled-actions?targetId=${b.id}&status=pending,cancelled`, { token: w.token });
    expect(both.body.total).toBe(byTarget.body.total);

    const first = all.body.data[0];
    const byBatch = await w.h.json("GET", `/v2/scheduled-actions?batchId=${first.batchId}`, { token: w.token });
    expect(byBatch.body.data.every((x: { batchId: string }) => x.batchId === first.batchId)).toBe(true);

    const window = await w.h.json("GET", `/v2/scheduled-actions?from=2026-11-21T12:25:00Z&to=2026-11-21T12:35:00Z`, { token: w.token });
    expect(window.body.total).toBeGreaterThan(0);
    expect(window.body.data.every((x: { resolved: { at: string } }) => x.resolved.at >= "2026-11-21T12:25" && x.resolved.at <= "2026-11-21T12:35")).toBe(true);

    const p1 = await w.h.json("GET", "/v2/scheduled-actions?limit=2&page=1", { token: w.token });
    const p2 = await w.h.json("GET", "/v2/scheduled-actions?limit=2&page=2", { token: w.token });
    expect(p2.body).toMatchObject({ page: 2, limit: 2, total: p1.body.total });
    expect(p2.body.data[0].id).not.toBe(p1.body.data[0].id);
    expect(all.body.data.slice(2, 4).map((x: { id: string }) => x.id)).toEqual(p2.body.data.map((x: { id: string }) => x.id));

    for (const [q, field] of [
      ["limit=201", "limit"],
      ["limit=0", "limit"],
      ["page=0", "page"],
      ["order=up", "order"],
      ["status=late", "status"],
      ["from=yesterday", "from"],
      ["to=2026-13-45", "to"],
    ]) {
      const r = await w.h.json("GET", `/v2/scheduled-actions?${q}`, { token: w.token });
      expect({ q, status: r.status, field: r.body.field }).toEqual({ q, status: 400, field });
    }
  });
});
