// Turning `localized` on and off goes through the field-change plan (decisions.md 13): on a model
// with entries a plain edit answers 409 field_change_required with the values kept and dropped;
// the plan's localize op counts them with examples; applying it moves each value into the
// default locale, or keeps the default's and drops the rest, drafts, published copies and
// versions alike, and the locale states follow. A change of type on a localized field converts
// each locale's value; new rules on one are counted and cleared locale by locale.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { change, run } from "../field-changes/helpers.ts";
import { FOUR, l10n, type L10n } from "./fixture.ts";

let p: L10n;
const FIVE = { default: "en", locales: [...FOUR.locales, { code: "it", name: "Italian", fallback: [] }] };
beforeAll(async () => {
  p = await l10n({}, FIVE);
});
afterAll(() => p.h.close());

const fieldId = async (ns: string, field: string) => (await p.ok("GET", `/v2/models/${ns}`)).fields.find((f: any) => f.namespace === field).id as string;
const planAndApply = async (ns: string, body: Record<string, unknown>, decide: (op: any) => Record<string, unknown> = () => ({ choice: "convert" })) => {
  const plan = await p.ok("POST", `/v2/models/${ns}/field-changes/plan`, body);
  const applied = await p.json("POST", `/v2/models/${ns}/field-changes`, {
    ...body,
    planHash: plan.planHash,
    decisions: plan.ops.map((op: any) => ({ opId: op.id, ...decide(op) })),
  });
  expect(applied.status).toBe(202);
  while ((await run(p.h)) > 0);
  return { plan, done: await change(p.h, p.token, applied.body.id) };
};

describe("localized on and off", () => {
  test("on a model without entries, an edit turns it on and off at once", async () => {
    await p.ok("POST", "/v2/models", { name: "Empty", namespace: "empty", fields: [{ namespace: "title", type: "string" }] });
    const f = await fieldId("empty", "title");
    expect((await p.ok("PATCH", "/v2/models/empty", { editFields: [{ id: f, localized: true }] })).fields[0].localized).toBe(true);
    expect("localized" in (await p.ok("PATCH", "/v2/models/empty", { editFields: [{ id: f, localized: false }] })).fields[0]).toBe(false);
  });

  test("turning it on moves every value into the default locale; published entries stay published there", async () => {
    await p.ok("POST", "/v2/models", {
      name: "Page",
      namespace: "page",
      fields: [
        { namespace: "title", type: "string" },
        { namespace: "n", type: "number" },
      ],
    });
    const pub = (await p.ok("POST", "/v2/model-instances", { model: "page", data: { title: "Live", n: 1 } })).id;
    await p.ok("POST", `/v2/model-instances/${pub}/publish`, {});
    await p.ok("PATCH", `/v2/model-instances/${pub}`, { data: { title: "Live, edited" } });
    const blank = (await p.ok("POST", "/v2/model-instances", { model: "page", data: { title: "", n: 2 } })).id;
    const f = await fieldId("page", "title");
    const refused = await p.json("PATCH", "/v2/models/page", { editFields: [{ id: f, localized: true }] });
    expect([refused.status, refused.body]).toEqual([
      409,
      {
        error: 'Turning localized on for field "title" on a model with entries needs a field change: its 2 values move into the default locale en.',
        code: "field_change_required",
        field: "editFields[0].localized",
        plan: `/v2/models/${(await p.ok("GET", "/v2/models/page")).id}/field-changes/plan`,
        kept: 2,
        dropped: 0,
      },
    ]);
    const { plan, done } = await planAndApply("page", { editFields: [{ id: f, localized: true }] });
    expect(plan.ops).toEqual([
      {
        id: `${f}.localized`,
        kind: "localize",
        fieldId: f,
        namespace: "title",
        from: { namespace: "title", type: "string", arrayType: null, relation: null },
        to: { namespace: "title", type: "string", arrayType: null, relation: null },
        choices: ["convert"],
        keepBothNamespace: null,
        localized: true,
        counts: { values: 2, convert: 2, loseDetail: 0, fail: 0, kept: 2, dropped: 0 },
        examples: [],
      },
    ]);
    expect(done.state).toBe("done");
    const e = await p.ok("GET", `/v2/model-instances/${pub}?locale=*`);
    expect([e.draft.data.title, e.published.data.title, e.locales]).toEqual([
      { en: "Live, edited", de: null, "de-CH": null, fr: null, it: null },
      { en: "Live", de: null, "de-CH": null, fr: null, it: null },
      { en: { status: "changed", publishedAt: "2026-11-21T12:00:00.000Z" } },
    ]);
    // The empty title moved nowhere: it is a blank value, which falls back.
    expect((await p.ok("GET", `/v2/model-instances/${blank}?locale=*`)).draft.data.title).toEqual({ en: null, de: null, "de-CH": null, fr: null, it: null });
    const versions = (await p.ok("GET", `/v2/model-instances/${pub}/versions?locale=*`)).data.map((v: any) => v.data.title.en);
    expect(versions).toEqual(["Live, edited", "Live"]);
    // Production readers of any chain still see it: de falls back to en.
    expect((await p.read(`/api/entries/page/${pub}?locale=de&select=title`, p.prod)).body.data).toEqual({ id: pub, title: "Live" });
  });

  test("turning it off with values in five locales: refused by the edit, counted by the plan, the default's kept", async () => {
    await p.ok("POST", "/v2/models", { name: "Sign", namespace: "sign", fields: [{ namespace: "text", type: "string", localized: true }] });
    const data = { text: { en: "Stop", de: "Halt", "de-CH": "Halt!", fr: "Arrêt", it: "Alt" } };
    const id = (await p.ok("POST", "/v2/model-instances?locale=*", { model: "sign", data })).id;
    await p.ok("POST", `/v2/model-instances/${id}/publish`, {});
    const f = await fieldId("sign", "text");
    const refused = await p.json("PATCH", "/v2/models/sign", { editFields: [{ id: f, localized: false }] });
    expect([refused.status, refused.body]).toEqual([
      409,
      {
        error:
          'Turning localized off for field "text" on a model with entries needs a field change: 1 value in en would be kept and 4 in other locales dropped.',
        code: "field_change_required",
        field: "editFields[0].localized",
        plan: `/v2/models/${(await p.ok("GET", "/v2/models/sign")).id}/field-changes/plan`,
        kept: 1,
        dropped: 4,
      },
    ]);
    // Nothing changed.
    expect((await p.ok("GET", "/v2/models/sign")).fields[0].localized).toBe(true);
    expect((await p.ok("GET", `/v2/model-instances/${id}?locale=*`)).draft.data.text).toEqual(data.text);
    const { plan, done } = await planAndApply("sign", { editFields: [{ id: f, localized: false }] });
    expect([plan.ops[0].counts, plan.ops[0].examples]).toEqual([
      { values: 5, convert: 1, loseDetail: 4, fail: 0, kept: 1, dropped: 4 },
      [{ entryId: id, copy: "draft", value: data.text, outcome: "loseDetail", reason: "the values in de, de-CH, fr, it are dropped; en is kept" }],
    ]);
    expect(done.state).toBe("done");
    // The field is shared now: the entry has no locale state, and reads in any locale show the one value.
    const e = await p.ok("GET", `/v2/model-instances/${id}`);
    expect([e.draft.data, e.published.data, e.status, "locales" in e]).toEqual([{ text: "Stop" }, { text: "Stop" }, "published", false]);
    expect((await p.read(`/api/entries/sign/${id}?locale=it&select=text`, p.prod)).body.data).toEqual({ id, text: "Stop" });
  });

  test("localized turned on or off together with a change of type or rules is refused", async () => {
    const f = await fieldId("page", "n");
    const r = await p.json("POST", "/v2/models/page/field-changes/plan", { editFields: [{ id: f, type: "string", localized: true }] });
    expect([r.status, r.body]).toEqual([
      400,
      { error: 'editFields[0]: turn localized on or off for "n" in a change of its own', code: "invalid_body", field: "editFields[0]" },
    ]);
  });
});

describe("conversions and rules of a localized field, locale by locale", () => {
  test("a change of type converts each locale's value; one that fails is named with its locale and emptied", async () => {
    await p.ok("POST", "/v2/models", { name: "Price", namespace: "price", fields: [{ namespace: "amount", type: "string", localized: true }] });
    const id = (await p.ok("POST", "/v2/model-instances?locale=*", { model: "price", data: { amount: { en: "5", de: "fünf", fr: "5.5" } } })).id;
    const f = await fieldId("price", "amount");
    const { plan, done } = await planAndApply("price", { editFields: [{ id: f, type: "number" }] });
    expect(plan.ops[0].counts).toEqual({ values: 3, convert: 2, loseDetail: 0, fail: 1 });
    expect(done.failures.data).toEqual([
      { entryId: id, fieldId: f, namespace: "amount", copy: "draft", value: { de: "fünf" }, reason: 'de: "fünf" is not a number' },
    ]);
    expect((await p.ok("GET", `/v2/model-instances/${id}?locale=*`)).draft.data.amount).toEqual({ en: 5, de: null, "de-CH": null, fr: 5.5, it: null });
  });

  test("a new rule counts and clears the values that break it in each locale", async () => {
    await p.ok("POST", "/v2/models", { name: "Tag", namespace: "tag", fields: [{ namespace: "label", type: "string", localized: true }] });
    const id = (await p.ok("POST", "/v2/model-instances?locale=*", { model: "tag", data: { label: { en: "long label", de: "kurz" } } })).id;
    const f = await fieldId("tag", "label");
    const refused = await p.json("PATCH", "/v2/models/tag", { editFields: [{ id: f, maxLength: 5 }] });
    expect([refused.status, refused.body.values]).toEqual([409, 1]);
    const { plan } = await planAndApply("tag", { editFields: [{ id: f, maxLength: 5 }] }, () => ({ choice: "clear" }));
    expect([plan.ops[0].counts, plan.ops[0].examples]).toEqual([
      { values: 2, convert: 1, loseDetail: 0, fail: 1 },
      [{ entryId: id, copy: "draft", value: "long label", reason: "label must be at most 5 characters long (it has 10)", locale: "en", outcome: "fail" }],
    ]);
    expect((await p.ok("GET", `/v2/model-instances/${id}?locale=*`)).draft.data.label).toEqual({ en: null, de: "kurz", "de-CH": null, fr: null, it: null });
  });
});
