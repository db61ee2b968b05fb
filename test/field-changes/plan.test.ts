// Field-change plans: POST /v2/models/:id/field-changes/plan (interface.md, Field change;
// decisions.md section 7). A plan writes nothing; it names one op per changed or removed field
// with the choices it allows, and counts the values that convert, lose detail or fail. Above
// 1,000 entries it answers 202 with a poll link and the counting runs in the job.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { createEntry } from "../../src/domain/entries/service.ts";
import { entry, model, plan, run } from "./helpers.ts";

let h: Harness;
let token: string;
let item: any;
let a1: any;
let e1: any;
let e2: any;
let e3: any;
let body: Record<string, unknown>;

const MEDIA = { url: "https://cdn.example.com/a.png", alt: "A", type: "image", width: 10, height: 10 };

beforeAll(async () => {
  h = startApp();
  ({ token } = await withOwner(h));
  await model(h, token, "author", [{ namespace: "name", type: "string" }]);
  await model(h, token, "other", [{ namespace: "name", type: "string" }]);
  a1 = await entry(h, token, "author", { name: "Ann" });
  item = await model(h, token, "item", [
    { namespace: "price", type: "string" },
    { namespace: "active", type: "string" },
    { namespace: "launch", type: "string" },
    { namespace: "count", type: "number" },
    { namespace: "flag", type: "true_false" },
    { namespace: "day", type: "date" },
    { namespace: "label", type: "string" },
    { namespace: "nums", type: "array", arrayType: "number" },
    { namespace: "writer", type: "relation", relation: "author" },
    { namespace: "pic", type: "image" },
    { namespace: "title", type: "string" },
    { namespace: "old", type: "string" },
  ]);
  // e1: published, then edited, so its published copy is a second copy that counts.
  e1 = await entry(
    h,
    token,
    "item",
    {
      price: "12.5",
      active: "yes",
      launch: "2026-01-02",
      count: 3,
      flag: true,
      day: "2026-03-04",
      label: "a",
      nums: [1, 2, 3],
      writer: a1.id,
      pic: MEDIA,
      title: "One",
      old: "x",
    },
    true,
  );
  expect((await h.json("PATCH", `/v2/model-instances/${e1.id}`, { token, body: { data: { price: "abc" } } })).status).toBe(200);
  e2 = await entry(h, token, "item", {
    price: " 7 ",
    active: "FALSE",
    launch: "soon",
    count: 4.5,
    flag: false,
    day: "2026-03-05T10:00:00Z",
    label: "b",
    nums: [5],
    title: "Two",
  });
  // e3: published with its draft, so it counts once.
  e3 = await entry(h, token, "item", { active: "maybe", launch: "2026-01-02T10:00:00Z", nums: [], label: "c", title: "Three" }, true);
  const f = item.f;
  const other = (await h.json("GET", "/v2/models/other", { token })).body;
  body = {
    editFields: [
      { id: f.price, type: "number" },
      { id: f.active, type: "true_false" },
      { id: f.launch, type: "date" },
      { id: f.count, type: "string" },
      { id: f.flag, type: "string" },
      { id: f.day, type: "string" },
      { id: f.label, type: "array", arrayType: "string" },
      { id: f.nums, type: "number" },
      { id: f.writer, relation: other.id },
      { id: f.pic, type: "number" },
      { id: f.title, namespace: "heading", label: "Heading" },
    ],
    removeIds: [f.old],
  };
});
afterAll(() => h.close());

describe("a plan", () => {
  let p: any;
  let before: any;
  beforeAll(async () => {
    before = {
      model: (await h.json("GET", "/v2/models/item", { token })).body,
      entries: (await h.json("GET", "/v2/model-instances?model=item", { token })).body,
      versions: (await h.json("GET", `/v2/model-instances/${e1.id}/versions`, { token })).body,
    };
    p = await plan(h, token, "item", body);
  });

  test("names the model, its version, a hash and the entry count", () => {
    expect(p.modelId).toBe(item.id);
    expect(p.model).toBe("item");
    expect(p.modelVersion).toBe(1);
    expect(p.planHash).toMatch(/^[0-9a-f]{64}$/);
    expect(p.entries).toBe(3);
    expect(Object.keys(p)).toEqual(["modelId", "model", "modelVersion", "planHash", "entries", "ops", "counts"]);
  });

  test("one op per changed or removed field, each with its allowed choices", () => {
    const f = item.f;
    expect(p.ops.map((o: any) => [o.namespace, o.kind, o.choices, o.keepBothNamespace])).toEqual([
      ["price", "change", ["convert", "clear", "keep_both"], "price_old"],
      ["active", "change", ["convert", "clear", "keep_both"], "active_old"],
      ["launch", "change", ["convert", "clear", "keep_both"], "launch_old"],
      ["count", "change", ["convert", "clear", "keep_both"], "count_old"],
      ["flag", "change", ["convert", "clear", "keep_both"], "flag_old"],
      ["day", "change", ["convert", "clear", "keep_both"], "day_old"],
      ["label", "change", ["convert", "clear", "keep_both"], "label_old"],
      ["nums", "change", ["convert", "clear", "keep_both"], "nums_old"],
      ["writer", "change", ["convert", "clear", "keep_both"], "writer_old"],
      // Media never becomes a number: convert is not offered.
      ["pic", "change", ["clear", "keep_both"], "pic_old"],
      ["title", "rename", ["convert"], null],
      ["old", "remove", ["delete"], null],
    ]);
    const price = p.ops[0];
    expect(price).toMatchObject({
      id: f.price,
      fieldId: f.price,
      from: { namespace: "price", type: "string", arrayType: null, relation: null },
      to: { namespace: "price", type: "number", arrayType: null, relation: null },
    });
    expect(p.ops[10]).toMatchObject({ from: { namespace: "title" }, to: { namespace: "heading", type: "string" } });
    expect(p.ops[11]).toMatchObject({ to: null });
  });

  test("counts per op: convert, lose detail, fail (the published copy of a changed entry counts too)", () => {
    const counts = Object.fromEntries(p.ops.map((o: any) => [o.namespace, o.counts]));
    expect(counts).toEqual({
      price: { values: 3, convert: 2, loseDetail: 0, fail: 1 },
      active: { values: 4, convert: 3, loseDetail: 0, fail: 1 },
      launch: { values: 4, convert: 3, loseDetail: 0, fail: 1 },
      count: { values: 3, convert: 3, loseDetail: 0, fail: 0 },
      flag: { values: 3, convert: 3, loseDetail: 0, fail: 0 },
      day: { values: 3, convert: 3, loseDetail: 0, fail: 0 },
      label: { values: 4, convert: 4, loseDetail: 0, fail: 0 },
      nums: { values: 3, convert: 1, loseDetail: 2, fail: 0 },
      writer: { values: 2, convert: 0, loseDetail: 0, fail: 2 },
      pic: { values: 2, convert: 0, loseDetail: 0, fail: 2 },
      title: { values: 4, convert: 4, loseDetail: 0, fail: 0 },
      old: { values: 2, convert: 0, loseDetail: 0, fail: 0 },
    });
    expect(p.counts).toEqual({ values: 37, convert: 26, loseDetail: 2, fail: 7 });
  });

  test("examples show what fails and what loses detail", () => {
    const ex = Object.fromEntries(p.ops.map((o: any) => [o.namespace, o.examples]));
    expect(ex.price).toEqual([{ entryId: e1.id, copy: "draft", value: "abc", outcome: "fail", reason: '"abc" is not a number' }]);
    expect(ex.active).toEqual([{ entryId: e3.id, copy: "draft", value: "maybe", outcome: "fail", reason: '"maybe" is not true or false' }]);
    expect(ex.launch).toEqual([
      { entryId: e2.id, copy: "draft", value: "soon", outcome: "fail", reason: '"soon" is not a date (YYYY-MM-DD) or an ISO 8601 date-time with a zone' },
    ]);
    expect(ex.nums).toEqual([
      { entryId: e1.id, copy: "draft", value: [1, 2, 3], outcome: "loseDetail", reason: "only the first of 3 items is kept: 1" },
      { entryId: e1.id, copy: "published", value: [1, 2, 3], outcome: "loseDetail", reason: "only the first of 3 items is kept: 1" },
    ]);
    expect(ex.writer[0]).toEqual({ entryId: e1.id, copy: "draft", value: a1.id, outcome: "fail", reason: `${a1.id} is not an entry of the related model` });
    expect(ex.pic[0]).toMatchObject({ outcome: "fail", reason: "a number field cannot hold image values" });
    expect(ex.count).toEqual([]);
  });

  test("writes nothing: model, entries, versions and history are as they were", async () => {
    expect((await h.json("GET", "/v2/models/item", { token })).body).toEqual(before.model);
    expect((await h.json("GET", "/v2/model-instances?model=item", { token })).body).toEqual(before.entries);
    expect((await h.json("GET", `/v2/model-instances/${e1.id}/versions`, { token })).body).toEqual(before.versions);
    expect((await h.json("GET", "/v2/models/item/field-changes", { token })).body.data).toEqual([]);
    expect((await h.req("GET", "/v2/models/item/field-changes/current", { token })).status).toBe(204);
  });

  test("the hash is stable for the same change and differs for another change or a newer model", async () => {
    expect((await plan(h, token, "item", body)).planHash).toBe(p.planHash);
    expect((await plan(h, token, item.id, body)).planHash).toBe(p.planHash);
    const other = await plan(h, token, "item", { editFields: [{ id: item.f.price, type: "number" }] });
    expect(other.planHash).not.toBe(p.planHash);
    expect(other.ops).toHaveLength(1);
    expect((await h.json("PATCH", "/v2/models/item", { token, body: { description: "changed" } })).status).toBe(200);
    const newer = await plan(h, token, "item", body);
    expect(newer.modelVersion).toBe(2);
    expect(newer.planHash).not.toBe(p.planHash);
  });

  test("a label-only edit has no op; an empty body is an empty plan", async () => {
    const r = await plan(h, token, "item", { editFields: [{ id: item.f.price, label: "Price" }] });
    expect(r.ops).toEqual([]);
    expect(r.counts).toEqual({ values: 0, convert: 0, loseDetail: 0, fail: 0 });
    expect((await plan(h, token, "item", {})).ops).toEqual([]);
  });

  test("keep_both picks a free namespace when <namespace>_old is taken", async () => {
    const m = await model(h, token, "taken", [
      { namespace: "size", type: "string" },
      { namespace: "size_old", type: "string" },
    ]);
    await entry(h, token, "taken", { size: "1" });
    const r = await plan(h, token, "taken", { editFields: [{ id: m.f.size, type: "number" }] });
    expect(r.ops[0].keepBothNamespace).toBe("size_old_2");
  });
});

describe("plan refusals", () => {
  const cases: [string, () => Record<string, unknown>, number, Record<string, unknown>][] = [
    [
      "an unknown key",
      () => ({ addFields: [] }),
      400,
      { error: "addFields is not part of a field change; send editFields and removeIds", code: "invalid_body", field: "addFields" },
    ],
    ["removeIds not a list", () => ({ removeIds: "x" }), 400, { error: "removeIds must be a list of field ids", code: "invalid_body", field: "removeIds" }],
    [
      "removeIds naming no field",
      () => ({ removeIds: ["nope"] }),
      400,
      { error: "removeIds[0] is not a field of this model", code: "invalid_body", field: "removeIds[0]" },
    ],
    [
      "removeIds twice",
      () => ({ removeIds: [item.f.old, item.f.old] }),
      400,
      { error: "removeIds[1] is listed twice", code: "invalid_body", field: "removeIds[1]" },
    ],
    ["editFields not a list", () => ({ editFields: {} }), 400, { error: "editFields must be a list", code: "invalid_body", field: "editFields" }],
    [
      "an edit of no field",
      () => ({ editFields: [{ id: "nope", type: "number" }] }),
      400,
      { error: "editFields[0].id is not a field of this model", code: "invalid_body", field: "editFields[0].id" },
    ],
    [
      "an edit of a removed field",
      () => ({ editFields: [{ id: item.f.old, type: "number" }], removeIds: [item.f.old] }),
      400,
      { error: "editFields[0].id is also in removeIds", code: "invalid_body", field: "editFields[0].id" },
    ],
    [
      "a field edited twice",
      () => ({
        editFields: [
          { id: item.f.price, type: "number" },
          { id: item.f.price, type: "date" },
        ],
      }),
      400,
      { error: "editFields[1].id is edited twice", code: "invalid_body", field: "editFields[1].id" },
    ],
    [
      "an unknown type",
      () => ({ editFields: [{ id: item.f.price, type: "money" }] }),
      400,
      {
        error:
          "editFields[0].type must be one of string, markdown, html, code, enum, color, number, true_false, date, array, relation, image, video, file, mixed",
        code: "invalid_body",
        field: "editFields[0].type",
      },
    ],
    [
      "two fields with one namespace",
      () => ({ editFields: [{ id: item.f.price, namespace: "label" }] }),
      400,
      { error: 'Two fields would be named "label"', code: "invalid_body", field: "editFields" },
    ],
  ];
  test.each(cases)("%s", async (_n, b, status, want) => {
    const r = await h.json("POST", "/v2/models/item/field-changes/plan", { token, body: b() });
    expect(r.status).toBe(status);
    expect(r.body).toEqual(want);
  });

  test("an unknown model is 404", async () => {
    const r = await h.json("POST", "/v2/models/nope/field-changes/plan", { token, body: {} });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'No model "nope" in this project.', code: "not_found", field: "id" });
  });
});

describe("a model with more than 1,000 entries", () => {
  let big: any;
  beforeAll(async () => {
    big = await model(h, token, "big", [{ namespace: "n", type: "string" }]);
    const s = h.capa.services;
    const ph = s.projects.get((await h.json("GET", "/v2/projects", { token })).body.data[0].id);
    for (let i = 0; i < 1000; i++) createEntry(s, ph, "system", { model: "big", data: { n: i % 10 === 0 ? `x${i}` : String(i) } });
  });

  test("exactly 1,000 entries are planned inside the request", async () => {
    const r = await plan(h, token, "big", { editFields: [{ id: big.f.n, type: "number" }] });
    expect(r.entries).toBe(1000);
    expect(r.ops[0].counts).toEqual({ values: 1000, convert: 900, loseDetail: 0, fail: 100 });
  });

  test("1,001 answer 202 with a poll link; the job counts in chunks; applying queues the same change", async () => {
    await entry(h, token, "big", { n: "1001" });
    const body = { editFields: [{ id: big.f.n, type: "number" }] };
    const r = await h.json("POST", "/v2/models/big/field-changes/plan", { token, body });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      state: "planned",
      modelId: big.id,
      model: "big",
      countsReady: false,
      counts: null,
      progress: { total: 1001, done: 0, failed: 0 },
    });
    expect(r.body.poll).toBe(`/v2/field-changes/${r.body.id}`);
    expect(r.body.planHash).toMatch(/^[0-9a-f]{64}$/);
    // Asking again answers the same planned change rather than counting twice.
    const again = await h.json("POST", "/v2/models/big/field-changes/plan", { token, body });
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(r.body.id);
    // Nothing changed: the model and its entries are as they were; the plan is not in progress.
    expect((await h.json("GET", "/v2/models/big", { token })).body.version).toBe(big.version);
    expect((await h.req("GET", "/v2/models/big/field-changes/current", { token })).status).toBe(204);
    // One counting step of 500, then the rest.
    expect(await run(h, { maxSteps: 1, chunkSize: 500 })).toBe(1);
    const mid = (await h.json("GET", r.body.poll, { token })).body;
    expect(mid).toMatchObject({ state: "planned", countsReady: false, progress: { done: 500 } });
    await run(h, { chunkSize: 500 });
    const counted = (await h.json("GET", r.body.poll, { token })).body;
    expect(counted).toMatchObject({ state: "planned", countsReady: true, counts: { values: 1001, convert: 901, loseDetail: 0, fail: 100 } });
    expect(counted.ops[0].counts).toEqual({ values: 1001, convert: 901, loseDetail: 0, fail: 100 });
    expect(counted.ops[0].examples).toHaveLength(5);
    // The job has nothing more to do for it.
    expect(await run(h)).toBe(0);
    const applied = await h.json("POST", "/v2/models/big/field-changes", {
      token,
      body: { ...body, planHash: r.body.planHash, decisions: [{ opId: big.f.n, choice: "convert" }] },
    });
    expect(applied.status).toBe(202);
    expect(applied.body).toMatchObject({ id: r.body.id, state: "queued", countsReady: true });
    await run(h);
    const done = (await h.json("GET", r.body.poll, { token })).body;
    expect(done).toMatchObject({ state: "done", progress: { total: 1001, done: 1001, failed: 100 }, resultVersion: big.version + 1 });
    expect(done.failures.total).toBe(100);
  });
});
