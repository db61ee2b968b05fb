// The field-change state table, transition by transition (interface.md, States and
// transitions: Field change; decisions.md section 7): planned, queued, converting, moving, done,
// failed, cancelled. Cancel works until the model starts moving; resume takes a failed or
// cancelled change. Also: current, history newest first, one change with its failed values.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { createEntry } from "../../src/domain/entries/service.ts";
import { readEntries, scopedKey } from "../agent-keys.ts";
import { change, entry, model, planAndApply, run } from "./helpers.ts";

let h: Harness;
let token: string;
let projectId: string;
let dev: string;

const state = async (id: string) => (await change(h, token, id)).state;
const cancel = (id: string) => h.json("POST", `/v2/field-changes/${id}/cancel`, { token });
const resume = (id: string, body: unknown = {}) => h.json("POST", `/v2/field-changes/${id}/resume`, { token, body });
/** One step of the job, with chunks of two entries. */
const step = () => run(h, { maxSteps: 1, chunkSize: 2 });

/** A model `ns` with `n` entries whose `v` is "0".."n-1", and a queued string -> number change. */
async function queued(ns: string, n: number, onFailure = "clear") {
  const m = await model(h, token, ns, [
    { namespace: "v", type: "string" },
    { namespace: "i", type: "number" },
  ]);
  for (let i = 0; i < n; i++) await entry(h, token, ns, { v: String(i), i });
  const { change: ch } = await planAndApply(h, token, ns, { editFields: [{ id: m.f.v, type: "number" }] }, () => ({ choice: "convert", onFailure }));
  return { m, ch };
}

const notCancellable = (st: string, why: string) => ({
  error: `This field change can no longer be cancelled: ${why}.`,
  code: "field_change_not_cancellable",
  state: st,
});
const notResumable = (st: string) => ({
  error: `Only a failed or cancelled field change can be resumed; this one is ${st}.`,
  code: "field_change_not_resumable",
  state: st,
});

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
  dev = await scopedKey(h, token, ["instance:read"], "development");
});
afterAll(() => h.close());

describe("the happy path: queued -> converting -> moving -> done", () => {
  let ch: any;
  let m: any;
  beforeAll(async () => ({ m, ch } = await queued("happy", 5)));

  test("apply answers 202 queued with a poll link; current shows it", async () => {
    expect(ch.state).toBe("queued");
    expect(ch.poll).toBe(`/v2/field-changes/${ch.id}`);
    const cur = await h.json("GET", "/v2/models/happy/field-changes/current", { token });
    expect(cur.status).toBe(200);
    expect(cur.body.id).toBe(ch.id);
  });

  test("queued -> converting: the first step counts the entries", async () => {
    expect(await step()).toBe(1);
    const c = await change(h, token, ch.id);
    expect(c).toMatchObject({ state: "converting", progress: { total: 5, done: 0, failed: 0 }, startedAt: expect.any(String) });
  });

  test("converting -> converting: one chunk per step, progress moves, nothing visible changes", async () => {
    await step();
    expect(await change(h, token, ch.id)).toMatchObject({ state: "converting", progress: { total: 5, done: 2 } });
    await step();
    expect(await change(h, token, ch.id)).toMatchObject({ state: "converting", progress: { done: 4 } });
    expect((await readEntries(h, dev, "happy", "sort=i")).map((r) => r.v)).toEqual(["0", "1", "2", "3", "4"]);
    expect((await h.json("GET", "/v2/models/happy", { token })).body.version).toBe(m.version);
  });

  test("converting -> moving after the last chunk; moving cannot be cancelled", async () => {
    await step();
    expect(await change(h, token, ch.id)).toMatchObject({ state: "moving", progress: { done: 5 } });
    const r = await cancel(ch.id);
    expect(r.status).toBe(409);
    expect(r.body).toEqual(notCancellable("moving", "the model is moving to its new shape"));
    const rs = await resume(ch.id);
    expect(rs.status).toBe(409);
    expect(rs.body).toEqual(notResumable("moving"));
    expect((await h.json("GET", "/v2/models/happy/field-changes/current", { token })).body.state).toBe("moving");
  });

  test("moving -> done: entries and model move together", async () => {
    await step();
    const c = await change(h, token, ch.id);
    expect(c).toMatchObject({ state: "done", resultVersion: m.version + 1, progress: { total: 5, done: 5, failed: 0 }, finishedAt: expect.any(String) });
    expect((await readEntries(h, dev, "happy", "sort=i")).map((r) => r.v)).toEqual([0, 1, 2, 3, 4]);
    expect((await h.req("GET", "/v2/models/happy/field-changes/current", { token })).status).toBe(204);
  });

  test("done: neither cancel nor resume", async () => {
    const c = await cancel(ch.id);
    expect(c.status).toBe(409);
    expect(c.body).toEqual(notCancellable("done", "the change is done"));
    const r = await resume(ch.id);
    expect(r.status).toBe(409);
    expect(r.body).toEqual(notResumable("done"));
  });
});

describe("cancel", () => {
  test("queued -> cancelled", async () => {
    const { ch } = await queued("cq", 3);
    const r = await cancel(ch.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: ch.id, state: "cancelled", finishedAt: expect.any(String) });
    expect(await run(h)).toBe(0);
    expect((await h.req("GET", "/v2/models/cq/field-changes/current", { token })).status).toBe(204);
  });

  test("converting -> cancelled: what was staged is dropped and the entries never changed", async () => {
    const { m, ch } = await queued("cc", 5);
    await step();
    await step();
    expect(await state(ch.id)).toBe("converting");
    const r = await cancel(ch.id);
    expect(r.body).toMatchObject({ state: "cancelled", progress: { done: 0, failed: 0 } });
    const hdl = h.capa.services.projects.get(projectId);
    expect(hdl.sqlite.query("SELECT count(*) AS n FROM field_change_rows WHERE change_id = ?").get(ch.id)).toEqual({ n: 0 });
    expect((await readEntries(h, dev, "cc", "sort=i")).map((r) => r.v)).toEqual(["0", "1", "2", "3", "4"]);
    expect((await h.json("GET", "/v2/models/cc", { token })).body.version).toBe(m.version);
    expect(await run(h)).toBe(0);
  });

  test("cancelled twice: 409", async () => {
    const { ch } = await queued("c2x", 1);
    await cancel(ch.id);
    const r = await cancel(ch.id);
    expect(r.status).toBe(409);
    expect(r.body).toEqual(notCancellable("cancelled", "the change is cancelled"));
  });

  test("an unknown change is 404", async () => {
    for (const r of [await cancel("nope"), await resume("nope"), await h.json("GET", "/v2/field-changes/nope", { token })]) {
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: "No such field change.", code: "not_found", field: "id" });
    }
  });
});

describe("resume", () => {
  test("cancelled -> queued -> ... -> done, starting again from the first entry", async () => {
    const { ch } = await queued("rc", 3);
    await step();
    await step();
    await cancel(ch.id);
    const r = await resume(ch.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ state: "queued", error: null, finishedAt: null, progress: { done: 0 } });
    await run(h);
    expect(await change(h, token, ch.id)).toMatchObject({ state: "done", progress: { total: 3, done: 3 } });
    expect((await readEntries(h, dev, "rc", "sort=i")).map((r) => r.v)).toEqual([0, 1, 2]);
  });

  test("failed -> cancelled", async () => {
    const m = await model(h, token, "fc", [{ namespace: "v", type: "string" }]);
    await entry(h, token, "fc", { v: "x" });
    const { change: ch } = await planAndApply(h, token, "fc", { editFields: [{ id: m.f.v, type: "number" }] }, () => ({
      choice: "convert",
      onFailure: "stop",
    }));
    await run(h);
    expect(await state(ch.id)).toBe("failed");
    const r = await cancel(ch.id);
    expect(r.status).toBe(200);
    expect(r.body.state).toBe("cancelled");
  });

  test("planned, queued and converting changes cannot be resumed", async () => {
    const { ch } = await queued("rq", 3);
    expect((await resume(ch.id)).body).toEqual(notResumable("queued"));
    await step();
    expect((await resume(ch.id)).body).toEqual(notResumable("converting"));
    await run(h);
  });

  test("a model edited while converting: the change fails with plan_stale, and resume starts it again on the new version", async () => {
    const { m, ch } = await queued("stale", 4);
    await step();
    await step();
    expect((await h.json("PATCH", "/v2/models/stale", { token, body: { description: "edited meanwhile" } })).status).toBe(200);
    await step();
    const failed = await change(h, token, ch.id);
    expect(failed).toMatchObject({
      state: "failed",
      error: { code: "plan_stale", message: "The model changed while the change ran; resume it to start again on the new version." },
    });
    expect((await h.json("GET", "/v2/models/stale", { token })).body.version).toBe(m.version + 1);
    const r = await resume(ch.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ state: "queued", baseVersion: m.version + 1, progress: { done: 0 } });
    expect(r.body.planHash).not.toBe(ch.planHash);
    await run(h);
    const done = await change(h, token, ch.id);
    expect(done).toMatchObject({ state: "done", resultVersion: m.version + 2 });
    const model2 = (await h.json("GET", "/v2/models/stale", { token })).body;
    expect(model2.description).toBe("edited meanwhile");
    expect(model2.fields.find((f: any) => f.namespace === "v").type).toBe("number");
  });

  test("a model whose change no longer applies: resume answers 409 plan_stale", async () => {
    const { m, ch } = await queued("gone", 2);
    await step();
    // The field is removed while the change converts (a model with entries may lose a field by PATCH).
    expect((await h.json("PATCH", "/v2/models/gone", { token, body: { removeIds: [m.f.v] } })).status).toBe(200);
    await run(h);
    expect((await change(h, token, ch.id)).error.code).toBe("plan_stale");
    const r = await resume(ch.id);
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      error: "The model changed since this change was planned, and the change no longer applies; make a new plan.",
      code: "plan_stale",
    });
    expect(await state(ch.id)).toBe("failed");
  });

  test("a model deleted while converting: the change fails, its staging goes, and resume answers plan_stale", async () => {
    const { ch } = await queued("deleted", 3);
    await step();
    await step();
    expect((await h.json("DELETE", "/v2/models/deleted", { token, body: { namespace: "deleted" } })).status).toBe(204);
    await step();
    const c = await change(h, token, ch.id);
    expect(c).toMatchObject({ state: "failed", model: null, error: { code: "not_found", message: "The model of this change was deleted." } });
    const hdl = h.capa.services.projects.get(projectId);
    expect(hdl.sqlite.query("SELECT count(*) AS n FROM field_change_rows WHERE change_id = ?").get(ch.id)).toEqual({ n: 0 });
    const r = await resume(ch.id);
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: "The model of this change was deleted.", code: "plan_stale" });
  });

  test("resume refuses a body other than { onFailure }", async () => {
    const m = await model(h, token, "rb", [{ namespace: "v", type: "string" }]);
    await entry(h, token, "rb", { v: "x" });
    const { change: ch } = await planAndApply(h, token, "rb", { editFields: [{ id: m.f.v, type: "number" }] }, () => ({
      choice: "convert",
      onFailure: "stop",
    }));
    await run(h);
    const bad = await resume(ch.id, { onFailure: "ignore" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "onFailure must be clear or stop", code: "invalid_body", field: "onFailure" });
    const extra = await resume(ch.id, { decisions: [] });
    expect(extra.body).toEqual({ error: "decisions is not accepted here; send { onFailure? }", code: "invalid_body", field: "decisions" });
    expect(await state(ch.id)).toBe("failed");
  });
});

describe("a large plan: planned -> queued, planned -> cancelled", () => {
  let m: any;
  beforeAll(async () => {
    m = await model(h, token, "lp", [{ namespace: "v", type: "string" }]);
    const hdl = h.capa.services.projects.get(projectId);
    for (let i = 0; i < 1001; i++) createEntry(h.capa.services, hdl, "system", { model: "lp", data: { v: String(i) } });
  });

  test("planned -> cancelled, and a planned change cannot be resumed", async () => {
    const r = await h.json("POST", "/v2/models/lp/field-changes/plan", { token, body: { editFields: [{ id: m.f.v, type: "number" }] } });
    expect(r.status).toBe(202);
    expect(r.body.state).toBe("planned");
    expect((await resume(r.body.id)).body).toEqual(notResumable("planned"));
    const c = await cancel(r.body.id);
    expect(c.status).toBe(200);
    expect(c.body.state).toBe("cancelled");
    expect(await run(h)).toBe(0);
  });

  test("planned -> queued by applying its hash, then done", async () => {
    const body = { editFields: [{ id: m.f.v, type: "number" }] };
    const r = await h.json("POST", "/v2/models/lp/field-changes/plan", { token, body });
    const a = await h.json("POST", "/v2/models/lp/field-changes", {
      token,
      body: { ...body, planHash: r.body.planHash, decisions: [{ opId: m.f.v, choice: "convert" }] },
    });
    expect(a.status).toBe(202);
    expect(a.body).toMatchObject({ id: r.body.id, state: "queued" });
    await run(h, { budgetMs: 60_000 });
    expect(await change(h, token, r.body.id)).toMatchObject({ state: "done", progress: { total: 1001, done: 1001, failed: 0 } });
  });
});

describe("entries saved while a change converts", () => {
  test("an entry edited after it was staged, and one created meanwhile, are converted from their newest copies", async () => {
    const { ch } = await queued("live", 4);
    await step();
    await step();
    const rows = await readEntries(h, dev, "live", "sort=i");
    await h.json("PATCH", `/v2/model-instances/${rows[0].id}`, { token, body: { data: { v: "100" } } });
    await h.json("POST", `/v2/model-instances/${rows[1].id}/publish`, { token, body: {} });
    const late = await entry(h, token, "live", { v: "7", i: 9 });
    await run(h);
    expect((await change(h, token, ch.id)).state).toBe("done");
    const after = await readEntries(h, dev, "live", "sort=i");
    expect(after.map((r) => [r.i, r.v])).toEqual([
      [0, 100],
      [1, 1],
      [2, 2],
      [3, 3],
      [9, 7],
    ]);
    expect(after.at(-1).id).toBe(late.id);
    const prod = await scopedKey(h, token, ["instance:read"], "production");
    expect((await readEntries(h, prod, "live")).map((r) => r.v)).toEqual([1]);
  });
});

describe("history and one change", () => {
  let m: any;
  let ids: string[] = [];
  beforeAll(async () => {
    m = await model(h, token, "hist", [
      { namespace: "a", type: "string" },
      { namespace: "b", type: "string" },
    ]);
    await entry(h, token, "hist", { a: "x", b: "1" });
    ids = [];
    const first = await planAndApply(h, token, "hist", { editFields: [{ id: m.f.a, type: "number" }] }, () => ({ choice: "convert" }));
    ids.push(first.change.id);
    await run(h);
    h.clock.advance(1000);
    const second = await planAndApply(h, token, "hist", { editFields: [{ id: m.f.b, type: "number" }] }, () => ({ choice: "convert" }));
    ids.push(second.change.id);
    await cancel(second.change.id);
    h.clock.advance(1000);
    const third = await planAndApply(h, token, "hist", { editFields: [{ id: m.f.b, namespace: "bee" }] }, () => ({ choice: "convert" }));
    ids.push(third.change.id);
  });

  test("GET history lists the model's changes newest first, by page", async () => {
    const r = await h.json("GET", "/v2/models/hist/field-changes", { token });
    expect(r.status).toBe(200);
    expect(r.body.data.map((c: any) => [c.id, c.state])).toEqual([
      [ids[2], "queued"],
      [ids[1], "cancelled"],
      [ids[0], "done"],
    ]);
    expect(r.body).toMatchObject({ page: 1, limit: 50, total: 3 });
    const p2 = await h.json("GET", `/v2/models/${m.id}/field-changes?limit=2&page=2`, { token });
    expect(p2.body.data.map((c: any) => c.id)).toEqual([ids[0]]);
    const bad = await h.json("GET", "/v2/models/hist/field-changes?limit=500", { token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "limit must be a whole number from 1 to 200", code: "invalid_body", field: "limit" });
  });

  test("GET one change carries its failed values", async () => {
    const c = await change(h, token, ids[0]!);
    expect(c.failures).toMatchObject({ total: 1, page: 1, limit: 1000 });
    expect(c.failures.data).toEqual([
      { entryId: expect.any(String), fieldId: m.f.a, namespace: "a", copy: "draft", value: "x", reason: '"x" is not a number' },
    ]);
    const page2 = await h.json("GET", `/v2/field-changes/${ids[0]}?failuresPage=2`, { token });
    expect(page2.body.failures).toMatchObject({ total: 1, page: 2, data: [] });
    const bad = await h.json("GET", `/v2/field-changes/${ids[0]}?failuresPage=0`, { token });
    expect(bad.body).toEqual({ error: "failuresPage must be a whole number from 1", code: "invalid_body", field: "failuresPage" });
  });

  test("current is the queued change; 204 once it is done", async () => {
    expect((await h.json("GET", "/v2/models/hist/field-changes/current", { token })).body.id).toBe(ids[2]);
    await run(h);
    const r = await h.req("GET", "/v2/models/hist/field-changes/current", { token });
    expect(r.status).toBe(204);
    expect(await r.text()).toBe("");
  });

  test("viewers read history; only model:update may plan, apply, cancel or resume", async () => {
    const { memberToken } = await import("../api/helpers.ts");
    const viewer = await memberToken(h, token, projectId, "viewer@example.com", "viewer");
    const as = { token: viewer, headers: { "x-svc-project": projectId } };
    expect((await h.json("GET", "/v2/models/hist/field-changes", as)).status).toBe(200);
    expect((await h.json("GET", `/v2/field-changes/${ids[0]}`, as)).status).toBe(200);
    const want = { error: "Insufficient permissions", required: ["owner", "admin", "developer"], current: "viewer" };
    for (const [method, path] of [
      ["POST", "/v2/models/hist/field-changes/plan"],
      ["POST", "/v2/models/hist/field-changes"],
      ["POST", `/v2/field-changes/${ids[1]}/cancel`],
      ["POST", `/v2/field-changes/${ids[1]}/resume`],
    ]) {
      const r = await h.json(method!, path!, { ...as, body: {} });
      expect({ path, status: r.status, body: r.body }).toEqual({ path, status: 403, body: want });
    }
  });
});
