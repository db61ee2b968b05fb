// New rules on values already saved (decisions.md 15; docs/editing.md, "New rules on saved
// values"): a model edit whose new rules no saved value breaks goes through; one that saved
// values break answers 409 field_change_required with their count, and the field-change plan has
// a `rule` op counting them, to keep (drafts may break rules) or clear (unique: clear only).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { change, entry, model, plan, planAndApply, run } from "./helpers.ts";

let h: Harness;
let token: string;
let m: any;
const ids: Record<string, string> = {};
beforeAll(async () => {
  h = startApp();
  ({ token } = await withOwner(h));
  m = await model(h, token, "post", [
    { namespace: "title", type: "string" },
    { namespace: "code", type: "string" },
  ]);
  ids.short = (await entry(h, token, "post", { title: "Short", code: "A" })).id;
  ids.long = (await entry(h, token, "post", { title: "A title that is far too long", code: "A" }, true)).id;
  ids.other = (await entry(h, token, "post", { title: "Other", code: "B" })).id;
  ids.empty = (await entry(h, token, "post", { title: "", code: null })).id;
});
afterAll(() => h.close());

const read = async (id: string) => (await h.json("GET", `/v2/model-instances/${id}`, { token })).body;

describe("a model edit with new rules", () => {
  test("goes through at once when no saved value breaks them", async () => {
    const r = await h.json("PATCH", "/v2/models/post", { token, body: { editFields: [{ id: m.f.title, maxLength: 100 }] } });
    expect([r.status, r.body.fields[0].maxLength]).toEqual([200, 100]);
    m = { ...r.body, f: m.f };
  });

  test("answers 409 field_change_required naming the field and how many values break them; the model is unchanged", async () => {
    const before = (await h.json("GET", "/v2/models/post", { token })).body;
    const r = await h.json("PATCH", "/v2/models/post", { token, body: { editFields: [{ id: m.f.title, maxLength: 10 }] } });
    expect([r.status, r.body]).toEqual([
      409,
      {
        error: '1 saved value of field "title" breaks its new rules (maxLength); plan the change to keep or clear them.',
        code: "field_change_required",
        field: "editFields[0]",
        plan: `/v2/models/${m.id}/field-changes/plan`,
        values: 1,
      },
    ]);
    const unique = await h.json("PATCH", "/v2/models/post", { token, body: { editFields: [{ id: m.f.code, unique: true }] } });
    expect(unique.body).toMatchObject({
      code: "field_change_required",
      values: 1,
      error: '1 saved value of field "code" breaks its new rules (unique); plan the change to keep or clear them.',
    });
    expect((await h.json("GET", "/v2/models/post", { token })).body).toEqual(before);
  });
});

describe("the plan's rule op", () => {
  test("counts the values checked and those that break the rule, with examples; unique offers clear only", async () => {
    const p = await plan(h, token, "post", {
      editFields: [
        { id: m.f.title, maxLength: 10 },
        { id: m.f.code, unique: true },
      ],
    });
    const [title, code] = p.ops;
    expect(title).toMatchObject({
      id: `${m.f.title}.rules`,
      kind: "rule",
      fieldId: m.f.title,
      namespace: "title",
      rules: ["maxLength"],
      choices: ["keep", "clear"],
      counts: { values: 3, convert: 2, loseDetail: 0, fail: 1 },
    });
    // The long title's published copy is its draft's version: one value. The empty title is not checked.
    expect(title.examples).toEqual([
      {
        entryId: ids.long,
        copy: "draft",
        value: "A title that is far too long",
        reason: "title must be at most 10 characters long (it has 28)",
        outcome: "fail",
      },
    ]);
    expect(code).toMatchObject({ kind: "rule", rules: ["unique"], choices: ["clear"], counts: { values: 3, convert: 2, fail: 1 } });
    expect(code.examples).toEqual([
      { entryId: ids.long, copy: "draft", value: "A", reason: `code holds the same value as the older entry ${ids.short}`, outcome: "fail" },
    ]);
  });

  test("keep: the model takes the rule, the values stay, and publishing then lists the rule", async () => {
    const { change: c } = await planAndApply(h, token, "post", { editFields: [{ id: m.f.title, maxLength: 10 }] }, () => ({ choice: "keep" }));
    await run(h);
    expect((await change(h, token, c.id)).state).toBe("done");
    expect((await h.json("GET", "/v2/models/post", { token })).body.fields[0].maxLength).toBe(10);
    const long = await read(ids.long);
    expect([long.draft.data.title, long.published.data.title]).toEqual(["A title that is far too long", "A title that is far too long"]);
    const pub = await h.json("POST", `/v2/model-instances/${ids.long}/publish`, { token });
    expect(pub.body.errors).toEqual([{ field: "data.title", rule: "maxLength", message: "title must be at most 10 characters long (it has 28)" }]);
  });

  test("clear on unique: the older entry keeps its value, later ones holding it are emptied and listed", async () => {
    const { change: c } = await planAndApply(h, token, "post", { editFields: [{ id: m.f.code, unique: true }] }, () => ({ choice: "clear" }));
    await run(h);
    const done = await change(h, token, c.id);
    expect(done.state).toBe("done");
    expect(done.progress.failed).toBe(1);
    expect((await read(ids.short)).draft.data.code).toBe("A");
    const long = await read(ids.long);
    expect([long.draft.data.code, long.published.data.code]).toEqual([null, null]);
    expect((await read(ids.other)).draft.data.code).toBe("B");
    // The rule holds from now on.
    const dup = await h.json("PATCH", `/v2/model-instances/${ids.other}`, { token, body: { data: { code: "A" } } });
    expect(dup.body).toMatchObject({ code: "not_unique", field: "data.code", entryId: ids.short });
  });

  test("a decision outside the op's choices, and unique with a change of type in one change, are refused", async () => {
    const p = await plan(h, token, "post", { editFields: [{ id: m.f.title, pattern: "^[A-Z]" }] });
    const r = await h.json("POST", "/v2/models/post/field-changes", {
      token,
      body: { editFields: [{ id: m.f.title, pattern: "^[A-Z]" }], planHash: p.planHash, decisions: [{ opId: p.ops[0].id, choice: "convert" }] },
    });
    expect([r.status, r.body]).toEqual([
      400,
      { error: "decisions[0].choice must be one of keep, clear for this op", code: "invalid_body", field: "decisions[0].choice" },
    ]);
    const both = await h.json("POST", "/v2/models/post/field-changes/plan", {
      token,
      body: { editFields: [{ id: m.f.title, type: "number", unique: true, maxLength: null }] },
    });
    expect([both.status, both.body]).toEqual([
      400,
      {
        error: 'editFields[0]: make "title" unique (or a slug) in a change of its own, after its change of type',
        code: "invalid_body",
        field: "editFields[0]",
      },
    ]);
  });
});
