// Field changes on the agent mount for legacy keys, and switched off with CAPA_FIELD_CHANGES=off
// (interface.md, Agent mount; Management routes: Field changes: 404 feature_disabled).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { INSUFFICIENT, INVALID_KEY, legacyKey, readEntries, scopedKey } from "../agent-keys.ts";
import { entry, model, run } from "./helpers.ts";

describe("the agent mount", () => {
  let h: Harness;
  let token: string;
  let agent: string;
  let read: string;
  let write: string;
  let scoped: string;
  let agentId: string;
  let m: any;
  let projectId: string;
  const key = (k: string, body?: unknown) => ({ headers: { "x-api-key": k }, ...(body === undefined ? {} : { body }) });
  const A = "/v2/agent";

  beforeAll(async () => {
    h = startApp();
    const o = await withOwner(h);
    token = o.token;
    projectId = o.project.id;
    agent = await legacyKey(h, token, "agent");
    read = await legacyKey(h, token, "read");
    write = await legacyKey(h, token, "write");
    scoped = await scopedKey(h, token, ["model:read", "model:update"]);
    agentId = (await h.json("GET", "/v2/tenants/api-keys", { token })).body.data.find((k: any) => k.name === "legacy agent").id;
    m = await model(h, token, "doc", [
      { namespace: "pages", type: "string" },
      { namespace: "x", type: "string" },
    ]);
    await entry(h, token, "doc", { pages: "12", x: "a" });
    await entry(h, token, "doc", { pages: "many", x: "b" });
  });
  afterAll(() => h.close());

  test("an agent key plans, applies, follows, cancels and resumes a change", async () => {
    const body = { editFields: [{ id: m.f.pages, type: "number" }] };
    const p = await h.json("POST", `${A}/models/doc/field-changes/plan`, key(agent, body));
    expect(p.status).toBe(200);
    expect(p.body.ops[0].counts).toEqual({ values: 2, convert: 1, loseDetail: 0, fail: 1 });
    const a = await h.json(
      "POST",
      `${A}/models/doc/field-changes`,
      key(agent, { ...body, planHash: p.body.planHash, decisions: [{ opId: m.f.pages, choice: "keep_both" }] }),
    );
    expect(a.status).toBe(202);
    expect(a.body).toMatchObject({ state: "queued", createdBy: { kind: "api_key", id: agentId }, poll: `/v2/agent/field-changes/${a.body.id}` });
    expect((await h.json("GET", `${A}/models/doc/field-changes/current`, key(agent))).body.id).toBe(a.body.id);
    const c = await h.json("POST", `${A}/field-changes/${a.body.id}/cancel`, key(agent));
    expect(c.status).toBe(200);
    expect(c.body.state).toBe("cancelled");
    const r = await h.json("POST", `${A}/field-changes/${a.body.id}/resume`, key(agent, {}));
    expect(r.status).toBe(200);
    expect(r.body.state).toBe("queued");
    await run(h);
    const one = await h.json("GET", a.body.poll, key(agent));
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ state: "done", failures: { total: 1 } });
    expect((await h.req("GET", `${A}/models/doc/field-changes/current`, key(agent))).status).toBe(204);
    const hist = await h.json("GET", `${A}/models/doc/field-changes`, key(agent));
    expect(hist.body.data.map((x: any) => x.id)).toEqual([a.body.id]);
    // The model event names the key as its actor.
    const ev = h.capa.services.projects
      .get(projectId)
      .sqlite.query("SELECT body FROM events WHERE type = 'model.published' ORDER BY seq DESC LIMIT 1")
      .get() as { body: string };
    expect(JSON.parse(ev.body).actor).toEqual({ kind: "api_key", id: agentId });
    const dev = await scopedKey(h, token, ["instance:read"], "development");
    expect((await readEntries(h, dev, "doc", "sort=x")).map((e) => [e.pages, e.pages_old])).toEqual([
      [12, "12"],
      [null, "many"],
    ]);
  });

  test("read and write keys read changes but cannot plan, apply, cancel or resume", async () => {
    const id = (await h.json("GET", `${A}/models/doc/field-changes`, key(agent))).body.data[0].id;
    for (const k of [read, write]) {
      expect((await h.json("GET", `${A}/models/doc/field-changes`, key(k))).status).toBe(200);
      expect((await h.json("GET", `${A}/field-changes/${id}`, key(k))).status).toBe(200);
      expect((await h.req("GET", `${A}/models/doc/field-changes/current`, key(k))).status).toBe(204);
      for (const path of [
        `${A}/models/doc/field-changes/plan`,
        `${A}/models/doc/field-changes`,
        `${A}/field-changes/${id}/cancel`,
        `${A}/field-changes/${id}/resume`,
      ]) {
        const r = await h.json("POST", path, key(k, {}));
        expect({ path, status: r.status, body: r.body }).toEqual({ path, status: 403, body: INSUFFICIENT });
      }
    }
  });

  test("a scoped key, an unknown key and no key are 401 Invalid API key", async () => {
    for (const opts of [key(scoped), key("pk_nope"), {}]) {
      const r = await h.json("POST", `${A}/models/doc/field-changes/plan`, { ...opts, body: {} });
      expect(r.status).toBe(401);
      expect(r.body).toEqual(INVALID_KEY);
      const g = await h.json("GET", `${A}/models/doc/field-changes`, opts);
      expect(g.body).toEqual(INVALID_KEY);
    }
  });
});

describe("CAPA_FIELD_CHANGES=off", () => {
  let h: Harness;
  let token: string;
  let agent: string;
  let m: any;
  beforeAll(async () => {
    h = startApp({ fieldChanges: false });
    ({ token } = await withOwner(h));
    agent = await legacyKey(h, token, "agent");
    m = await model(h, token, "doc", [{ namespace: "v", type: "string" }]);
    await entry(h, token, "doc", { v: "1" });
  });
  afterAll(() => h.close());

  const DISABLED = { error: "Field changes are switched off on this server.", code: "feature_disabled" };
  const routes = (prefix: string): [string, string][] => [
    ["POST", `${prefix}/models/doc/field-changes/plan`],
    ["POST", `${prefix}/models/doc/field-changes`],
    ["GET", `${prefix}/models/doc/field-changes/current`],
    ["GET", `${prefix}/models/doc/field-changes`],
    ["GET", `${prefix}/field-changes/0192f0c1-0000-7000-8000-000000000000`],
    ["POST", `${prefix}/field-changes/0192f0c1-0000-7000-8000-000000000000/cancel`],
    ["POST", `${prefix}/field-changes/0192f0c1-0000-7000-8000-000000000000/resume`],
  ];

  test("every route answers 404 feature_disabled on both mounts", async () => {
    for (const [method, path] of routes("/v2")) {
      const r = await h.json(method, path, { token, body: method === "POST" ? { editFields: [{ id: m.f.v, type: "number" }] } : undefined });
      expect({ path, status: r.status, body: r.body }).toEqual({ path, status: 404, body: DISABLED });
    }
    for (const [method, path] of routes("/v2/agent")) {
      const r = await h.json(method, path, { headers: { "x-api-key": agent }, body: method === "POST" ? {} : undefined });
      expect({ path, status: r.status, body: r.body }).toEqual({ path, status: 404, body: DISABLED });
    }
  });

  test("the job does nothing, and the model edit rule is unchanged", async () => {
    expect(await run(h)).toBe(0);
    const r = await h.json("PATCH", "/v2/models/doc", { token, body: { editFields: [{ id: m.f.v, type: "number" }] } });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("field_change_required");
  });
});
