// Applying field changes: the decisions (convert, clear, keep_both, delete), onFailure clear
// versus stop, published copies and older versions, comparison keys, the layout, the event, and
// the refusals (plan_stale, bad decisions, a change already in progress).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { readEntries, scopedKey } from "../agent-keys.ts";
import { change, entry, model, plan, planAndApply, run } from "./helpers.ts";

let h: Harness;
let token: string;
let projectId: string;
let dev: string;
let prod: string;

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
  dev = await scopedKey(h, token, ["instance:read"], "development");
  prod = await scopedKey(h, token, ["instance:read"], "production");
});
afterAll(() => h.close());

describe("onFailure clear versus stop", () => {
  test("clear: failed values are emptied and listed; the draft and the published copy convert apart", async () => {
    const m = await model(h, token, "c1", [{ namespace: "price", type: "string" }]);
    const a = await entry(h, token, "c1", { price: "12.5" }, true);
    await h.json("PATCH", `/v2/model-instances/${a.id}`, { token, body: { data: { price: "twelve" } } });
    const b = await entry(h, token, "c1", { price: "n/a" }, true);
    const { change: ch } = await planAndApply(h, token, "c1", { editFields: [{ id: m.f.price, type: "number" }] }, () => ({
      choice: "convert",
      onFailure: "clear",
    }));
    expect(ch.ops[0].decision).toEqual({ choice: "convert", onFailure: "clear" });
    await run(h);
    const byId = (rows: any[]) => Object.fromEntries(rows.map((r) => [r.id, r.price]));
    expect(byId(await readEntries(h, dev, "c1"))).toEqual({ [a.id]: null, [b.id]: null });
    expect(byId(await readEntries(h, prod, "c1"))).toEqual({ [a.id]: 12.5, [b.id]: null });
    const c = await change(h, token, ch.id);
    expect(c.state).toBe("done");
    expect(c.failures.data).toEqual(
      [
        { entryId: a.id, fieldId: m.f.price, namespace: "price", copy: "draft", value: "twelve", reason: '"twelve" is not a number' },
        { entryId: b.id, fieldId: m.f.price, namespace: "price", copy: "draft", value: "n/a", reason: '"n/a" is not a number' },
      ].sort((x, y) => x.entryId.localeCompare(y.entryId)),
    );
  });

  test("stop: the change fails with every failed value listed, and the model and entries stay as they were", async () => {
    const m = await model(h, token, "c2", [{ namespace: "price", type: "string" }]);
    const good = await entry(h, token, "c2", { price: "3" });
    const bad = await entry(h, token, "c2", { price: "three" });
    const before = (await h.json("GET", "/v2/model-instances?model=c2", { token })).body;
    const { change: ch } = await planAndApply(h, token, "c2", { editFields: [{ id: m.f.price, type: "number" }] }, () => ({
      choice: "convert",
      onFailure: "stop",
    }));
    await run(h);
    const c = await change(h, token, ch.id);
    expect(c.state).toBe("failed");
    expect(c.error).toEqual({
      code: "conversion_failed",
      message: "1 value failed to convert and the decision is to stop; fix them and resume, or resume with onFailure clear.",
    });
    expect(c.failures.data).toEqual([
      { entryId: bad.id, fieldId: m.f.price, namespace: "price", copy: "draft", value: "three", reason: '"three" is not a number' },
    ]);
    expect((await h.json("GET", "/v2/models/c2", { token })).body.version).toBe(m.version);
    expect((await h.json("GET", "/v2/model-instances?model=c2", { token })).body).toEqual(before);
    expect((await readEntries(h, dev, "c2")).map((r) => r.price).sort()).toEqual(["3", "three"]);

    // Fixing the value and resuming finishes the change with nothing lost.
    await h.json("PATCH", `/v2/model-instances/${bad.id}`, { token, body: { data: { price: "3.5" } } });
    const resumed = await h.json("POST", `/v2/field-changes/${ch.id}/resume`, { token, body: {} });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ state: "queued", error: null, progress: { failed: 0 } });
    await run(h);
    const done = await change(h, token, ch.id);
    expect(done.state).toBe("done");
    expect(done.failures.total).toBe(0);
    const rows = Object.fromEntries((await readEntries(h, dev, "c2")).map((r) => [r.id, r.price]));
    expect(rows).toEqual({ [good.id]: 3, [bad.id]: 3.5 });
  });

  test("stop, then resume with onFailure clear: the value is emptied and stays listed", async () => {
    const m = await model(h, token, "c3", [{ namespace: "price", type: "string" }]);
    const bad = await entry(h, token, "c3", { price: "three" });
    const { change: ch } = await planAndApply(h, token, "c3", { editFields: [{ id: m.f.price, type: "number" }] }, () => ({
      choice: "convert",
      onFailure: "stop",
    }));
    await run(h);
    expect((await change(h, token, ch.id)).state).toBe("failed");
    const r = await h.json("POST", `/v2/field-changes/${ch.id}/resume`, { token, body: { onFailure: "clear" } });
    expect(r.status).toBe(200);
    expect(r.body.ops[0].decision).toEqual({ choice: "convert", onFailure: "clear" });
    await run(h);
    const done = await change(h, token, ch.id);
    expect(done.state).toBe("done");
    expect(done.failures.data).toEqual([
      { entryId: bad.id, fieldId: m.f.price, namespace: "price", copy: "draft", value: "three", reason: '"three" is not a number' },
    ]);
    expect((await readEntries(h, dev, "c3"))[0].price).toBeNull();
  });
});

describe("the other choices", () => {
  test("keep_both converts and keeps the old values under <namespace>_old", async () => {
    const m = await model(h, token, "kb", [{ namespace: "size", type: "string", label: "Size" }]);
    const a = await entry(h, token, "kb", { size: "42" }, true);
    const b = await entry(h, token, "kb", { size: "large" });
    const c = await entry(h, token, "kb", {});
    const { change: ch } = await planAndApply(h, token, "kb", { editFields: [{ id: m.f.size, type: "number" }] }, () => ({ choice: "keep_both" }));
    await run(h);
    const done = await change(h, token, ch.id);
    expect(done.state).toBe("done");
    const fields = (await h.json("GET", "/v2/models/kb", { token })).body.fields;
    expect(fields.map((f: any) => [f.namespace, f.type, f.label, f.required])).toEqual([
      ["size", "number", "Size", false],
      ["size_old", "string", "Size (old)", false],
    ]);
    expect(fields[0].id).toBe(m.f.size);
    const rows = Object.fromEntries((await readEntries(h, dev, "kb")).map((r) => [r.id, [r.size, r.size_old]]));
    expect(rows).toEqual({ [a.id]: [42, "42"], [b.id]: [null, "large"], [c.id]: [null, null] });
    expect((await readEntries(h, prod, "kb")).map((r) => [r.size, r.size_old])).toEqual([[42, "42"]]);
    // The failed value is listed, and still there under size_old.
    expect(done.failures.data.map((f: any) => [f.entryId, f.value])).toEqual([[b.id, "large"]]);
  });

  test("clear empties the field's values under its new type", async () => {
    const m = await model(h, token, "cl", [
      { namespace: "note", type: "string" },
      { namespace: "keep", type: "string" },
    ]);
    await entry(h, token, "cl", { note: "5", keep: "k" }, true);
    const { change: ch } = await planAndApply(h, token, "cl", { editFields: [{ id: m.f.note, type: "number" }] }, () => ({ choice: "clear" }));
    await run(h);
    expect((await change(h, token, ch.id)).state).toBe("done");
    expect((await readEntries(h, dev, "cl")).map((r) => [r.note, r.keep])).toEqual([[null, "k"]]);
    expect((await readEntries(h, prod, "cl")).map((r) => [r.note, r.keep])).toEqual([[null, "k"]]);
  });

  test("delete removes a field and its values; the layout drops it, and display leaves a field that is no longer a relation", async () => {
    await model(h, token, "who", [{ namespace: "name", type: "string" }]);
    const m = await model(h, token, "del", [
      { namespace: "gone", type: "string" },
      { namespace: "by", type: "relation", relation: "who" },
      { namespace: "t", type: "string" },
    ]);
    const w = await entry(h, token, "who", { name: "W" });
    await entry(h, token, "del", { gone: "bye", by: w.id, t: "x" });
    const layout = {
      v: 1,
      main: [
        {
          t: "card",
          id: "c",
          title: "C",
          items: [
            { t: "field", id: "i1", fieldId: m.f.gone },
            { t: "field", id: "i2", fieldId: m.f.by, display: "inline" },
            { t: "field", id: "i3", fieldId: m.f.t, width: "half" },
          ],
        },
      ],
    };
    expect((await h.json("PUT", "/v2/models/del/layout", { token, body: { layout } })).status).toBe(200);
    const { change: ch } = await planAndApply(h, token, "del", { editFields: [{ id: m.f.by, type: "string" }], removeIds: [m.f.gone] }, (op) => ({
      choice: op.kind === "remove" ? "delete" : "convert",
    }));
    await run(h);
    expect((await change(h, token, ch.id)).state).toBe("done");
    const after = (await h.json("GET", "/v2/models/del", { token })).body;
    expect(after.fields.map((f: any) => f.namespace)).toEqual(["by", "t"]);
    expect(after.layout.main[0].items).toEqual([
      { t: "field", id: "i2", fieldId: m.f.by, width: "full" },
      { t: "field", id: "i3", fieldId: m.f.t, width: "half" },
    ]);
    const rows = await readEntries(h, dev, "del");
    expect(rows[0].by).toBe(w.id);
    expect("gone" in rows[0]).toBe(false);
  });
});

describe("versions, keys and events", () => {
  let m: any;
  let e: any;
  let ch: any;
  beforeAll(async () => {
    m = await model(h, token, "ver", [
      { namespace: "when", type: "string" },
      { namespace: "n", type: "number" },
    ]);
    e = await entry(h, token, "ver", { when: "2026-01-05", n: 1 }, true);
    await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body: { data: { when: "someday" } } });
    await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body: { data: { when: "2026-02-01T09:00:00+01:00" } } });
    await entry(h, token, "ver", { when: "2025-12-31", n: 2 });
    ({ change: ch } = await planAndApply(h, token, "ver", { editFields: [{ id: m.f.when, type: "date" }] }, () => ({ choice: "convert" })));
    await run(h);
  });

  test("older versions are converted where they convert; what does not stays as stored and reads null", async () => {
    const versions = (await h.json("GET", `/v2/model-instances/${e.id}/versions`, { token })).body.data;
    expect(versions.map((v: any) => [v.number, v.data.when, v.published])).toEqual([
      [3, "2026-02-01T09:00:00+01:00", false],
      [2, null, false],
      [1, "2026-01-05", true],
    ]);
    // Only current copies list failures; history is never emptied.
    expect((await change(h, token, ch.id)).failures.total).toBe(0);
  });

  test("an older version published after the change carries its converted value", async () => {
    const v1 = (await h.json("GET", `/v2/model-instances/${e.id}/versions`, { token })).body.data.find((v: any) => v.number === 1);
    const r = await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token, body: { versionId: v1.id } });
    expect(r.status).toBe(200);
    expect((await readEntries(h, prod, "ver"))[0].when).toBe("2026-01-05");
  });

  test("comparison keys are recomputed: converted dates filter and sort as instants", async () => {
    const where = encodeURIComponent(JSON.stringify({ when: { gte: "2026-01-01" } }));
    const rows = await readEntries(h, dev, "ver", `where=${where}&sort=when`);
    expect(rows.map((r) => r.when)).toEqual(["2026-02-01T09:00:00+01:00"]);
    const all = await readEntries(h, dev, "ver", "sort=-when");
    expect(all.map((r) => r.n)).toEqual([1, 2]);
  });

  test("moving the model is a model change: a new version and a model.published event by the person who applied it", async () => {
    const got = (await h.json("GET", "/v2/models/ver", { token })).body;
    expect(got.version).toBe(m.version + 1);
    const hdl = h.capa.services.projects.get(projectId);
    const ev = hdl.sqlite.query("SELECT body FROM events WHERE type = 'model.published' ORDER BY seq DESC LIMIT 1").get() as { body: string };
    const body = JSON.parse(ev.body);
    expect(body.data).toMatchObject({ modelId: m.id, modelNamespace: "ver", version: m.version + 1 });
    expect(body.actor.kind).toBe("user");
  });

  test("a model with entries still refuses a shape change by PATCH, pointing at the plan", async () => {
    const r = await h.json("PATCH", "/v2/models/ver", { token, body: { editFields: [{ id: m.f.n, type: "string" }] } });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: "field_change_required", plan: `/v2/models/${m.id}/field-changes/plan` });
  });
});

describe("apply refusals write nothing", () => {
  let m: any;
  let p: any;
  let body: Record<string, unknown>;
  beforeAll(async () => {
    m = await model(h, token, "ref", [
      { namespace: "a", type: "string" },
      { namespace: "pic", type: "image" },
      { namespace: "t", type: "string" },
    ]);
    await entry(h, token, "ref", { a: "1" });
    body = {
      editFields: [
        { id: m.f.a, type: "number" },
        { id: m.f.pic, type: "number" },
        { id: m.f.t, namespace: "title" },
      ],
    };
    p = await plan(h, token, "ref", body);
  });
  const apply = (extra: Record<string, unknown>) =>
    h.json("POST", "/v2/models/ref/field-changes", { token, body: { ...body, planHash: p.planHash, ...extra } });
  const decisions = () => [
    { opId: m.f.a, choice: "convert" },
    { opId: m.f.pic, choice: "clear" },
    { opId: m.f.t, choice: "convert" },
  ];

  const cases: [string, () => Record<string, unknown>, Record<string, unknown> | (() => Record<string, unknown>)][] = [
    [
      "no planHash",
      () => ({ planHash: undefined, decisions: decisions() }),
      { error: "planHash is required: make a plan first with POST .../field-changes/plan", code: "invalid_body", field: "planHash" },
    ],
    [
      "no decisions",
      () => ({}),
      { error: "decisions must be a list of { opId, choice, onFailure? }, one per op of the plan", code: "invalid_body", field: "decisions" },
    ],
    [
      "a decision missing",
      () => ({ decisions: decisions().slice(0, 2) }),
      () => ({ error: `decisions has no decision for op ${m.f.t} (field "t")`, code: "invalid_body", field: "decisions" }),
    ],
    [
      "an unknown op",
      () => ({ decisions: [...decisions(), { opId: "nope", choice: "clear" }] }),
      { error: "decisions[3].opId is not an op of this plan", code: "invalid_body", field: "decisions[3].opId" },
    ],
    [
      "an op decided twice",
      () => ({ decisions: [...decisions(), { opId: m.f.a, choice: "clear" }] }),
      { error: "decisions[3].opId is decided twice", code: "invalid_body", field: "decisions[3].opId" },
    ],
    [
      "convert where it is not offered",
      () => ({ decisions: [decisions()[0], { opId: m.f.pic, choice: "convert" }, decisions()[2]] }),
      { error: "decisions[1].choice must be one of clear, keep_both for this op", code: "invalid_body", field: "decisions[1].choice" },
    ],
    [
      "keep_both on a rename",
      () => ({ decisions: [decisions()[0], decisions()[1], { opId: m.f.t, choice: "keep_both" }] }),
      { error: "decisions[2].choice must be one of convert for this op", code: "invalid_body", field: "decisions[2].choice" },
    ],
    [
      "delete on a change",
      () => ({ decisions: [{ opId: m.f.a, choice: "delete" }, decisions()[1], decisions()[2]] }),
      { error: "decisions[0].choice must be one of convert, clear, keep_both for this op", code: "invalid_body", field: "decisions[0].choice" },
    ],
    [
      "onFailure of another kind",
      () => ({ decisions: [{ opId: m.f.a, choice: "convert", onFailure: "skip" }, decisions()[1], decisions()[2]] }),
      { error: "decisions[0].onFailure must be clear or stop", code: "invalid_body", field: "decisions[0].onFailure" },
    ],
    [
      "onFailure on clear",
      () => ({ decisions: [decisions()[0], { opId: m.f.pic, choice: "clear", onFailure: "stop" }, decisions()[2]] }),
      { error: "decisions[1].onFailure is only for a convert decision on a change of type", code: "invalid_body", field: "decisions[1].onFailure" },
    ],
    [
      "an unknown key in a decision",
      () => ({ decisions: [{ ...decisions()[0], note: "x" }, decisions()[1], decisions()[2]] }),
      { error: "decisions[0].note is not part of a decision", code: "invalid_body", field: "decisions[0].note" },
    ],
    [
      "a body that differs from the plan",
      () => ({
        editFields: [
          { id: m.f.a, type: "date" },
          { id: m.f.pic, type: "number" },
          { id: m.f.t, namespace: "title" },
        ],
        decisions: decisions(),
      }),
      { error: "The model changed since the plan was made, or this change differs from the planned one; make a new plan.", code: "plan_stale" },
    ],
    [
      "a hash that is not the plan's",
      () => ({ planHash: "0".repeat(64), decisions: decisions() }),
      { error: "The model changed since the plan was made, or this change differs from the planned one; make a new plan.", code: "plan_stale" },
    ],
  ];
  test.each(cases)("%s", async (_n, extra, wanted) => {
    const want = typeof wanted === "function" ? wanted() : wanted;
    const r = await apply(extra());
    expect(r.status).toBe(want.code === "plan_stale" ? 409 : 400);
    expect(r.body).toEqual(want);
    expect((await h.json("GET", "/v2/models/ref/field-changes", { token })).body.total).toBe(0);
    expect((await h.json("GET", "/v2/models/ref", { token })).body.version).toBe(m.version);
  });

  test("409 plan_stale when the model changed since the plan", async () => {
    expect((await h.json("PATCH", "/v2/models/ref", { token, body: { name: "Renamed" } })).status).toBe(200);
    const r = await apply({ decisions: decisions() });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      error: "The model changed since the plan was made, or this change differs from the planned one; make a new plan.",
      code: "plan_stale",
    });
    expect((await h.json("GET", "/v2/models/ref/field-changes", { token })).body.total).toBe(0);
  });

  test("409 field_change_in_progress while another change of the model runs", async () => {
    p = await plan(h, token, "ref", body);
    const first = await apply({ decisions: decisions() });
    expect(first.status).toBe(202);
    const second = await apply({ decisions: decisions() });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      error: "Another field change of this model is in progress.",
      code: "field_change_in_progress",
      changeId: first.body.id,
    });
    await run(h);
    expect((await change(h, token, first.body.id)).state).toBe("done");
  });
});
