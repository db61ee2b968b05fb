// Field settings on model create and edit (decisions.md 15; docs/editing.md): what is stored and
// shown, what a setting that does not fit is refused with (whole bodies), and that a refused
// body changes nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";

let h: Harness;
let token: string;
beforeAll(async () => {
  h = startApp();
  ({ token } = await withOwner(h));
});
afterAll(() => h.close());

const refusal = (field: string, error: string) => ({ error, code: "invalid_body", field });

describe("settings are stored on the field and shown in the model record", () => {
  test("every setting on a create, each only when set", async () => {
    const r = await h.json("POST", "/v2/models", {
      token,
      body: {
        name: "Article",
        namespace: "article",
        fields: [
          { namespace: "title", type: "string", label: "Title", required: true, minLength: 3, maxLength: 80, help: "Shown on cards." },
          { namespace: "slug", type: "string", label: "Slug", slug: { from: "title" } },
          { namespace: "code", type: "string", unique: true, pattern: "^[A-Z]{3}-\\d{3}$", patternMessage: "Use three capitals, a hyphen and three digits" },
          { namespace: "rating", type: "number", min: 1, max: 5, default: 3 },
          { namespace: "tags", type: "array", arrayType: "string", min: 1, max: 4, default: ["news"] },
          { namespace: "featured", type: "true_false", default: false },
          { namespace: "body", type: "markdown", unique: false },
        ],
      },
    });
    expect(r.status).toBe(201);
    const base = { label: null, arrayType: null, relation: null, required: false, options: null };
    expect(r.body.fields.map(({ id: _, ...f }: any) => f)).toEqual([
      { ...base, namespace: "title", label: "Title", type: "string", required: true, minLength: 3, maxLength: 80, help: "Shown on cards." },
      { ...base, namespace: "slug", label: "Slug", type: "string", slug: { from: "title" } },
      {
        ...base,
        namespace: "code",
        type: "string",
        unique: true,
        pattern: "^[A-Z]{3}-\\d{3}$",
        patternMessage: "Use three capitals, a hyphen and three digits",
      },
      { ...base, namespace: "rating", type: "number", min: 1, max: 5, default: 3 },
      { ...base, namespace: "tags", type: "array", arrayType: "string", min: 1, max: 4, default: ["news"] },
      { ...base, namespace: "featured", type: "true_false", default: false },
      // unique: false is no setting at all: the field keeps its old shape.
      { ...base, namespace: "body", type: "markdown" },
    ]);
    expect(Object.keys(r.body.fields[6])).toEqual(["id", "namespace", "label", "type", "arrayType", "relation", "required", "options"]);
  });

  test("an edit sets, changes and clears settings (null, and false for unique); the rest stay", async () => {
    const m = (await h.json("GET", "/v2/models/article", { token })).body;
    const [title, , code] = m.fields;
    const r = await h.json("PATCH", "/v2/models/article", {
      token,
      body: {
        editFields: [
          { id: title.id, maxLength: 120, help: null },
          { id: code.id, unique: false, pattern: null, patternMessage: null },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.fields[0]).toEqual({ ...title, maxLength: 120, help: undefined });
    expect(Object.keys(r.body.fields[0])).not.toContain("help");
    expect(r.body.fields[2]).toEqual({
      id: code.id,
      namespace: "code",
      label: null,
      type: "string",
      arrayType: null,
      relation: null,
      required: false,
      options: null,
    });
    expect(r.body.version).toBe(2);
  });

  test("a slug follows its source when the source is renamed", async () => {
    const m = (await h.json("GET", "/v2/models/article", { token })).body;
    const r = await h.json("PATCH", "/v2/models/article", { token, body: { editFields: [{ id: m.fields[0].id, namespace: "headline" }] } });
    expect(r.status).toBe(200);
    expect(r.body.fields[1].slug).toEqual({ from: "headline" });
  });
});

describe("a setting that does not fit is refused naming it, and nothing changes", () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    [
      "unique on a list",
      { namespace: "x", type: "array", arrayType: "string", unique: true },
      "fields[0].unique",
      "fields[0].unique is only for single text, enum, color, number, date and relation fields, not a list of string field",
    ],
    [
      "unique on true_false",
      { namespace: "x", type: "true_false", unique: true },
      "fields[0].unique",
      "fields[0].unique is only for single text, enum, color, number, date and relation fields, not a true_false field",
    ],
    [
      "min on a text field",
      { namespace: "x", type: "string", min: 1 },
      "fields[0].min",
      "fields[0].min is only for number fields and lists (their item count), not a string field",
    ],
    [
      "minLength on a number",
      { namespace: "x", type: "number", minLength: 1 },
      "fields[0].minLength",
      "fields[0].minLength is only for text fields (string, markdown, html, code), not a number field",
    ],
    [
      "maxLength on an enum",
      { namespace: "x", type: "enum", options: { values: ["a"] }, maxLength: 1 },
      "fields[0].maxLength",
      "fields[0].maxLength is only for text fields (string, markdown, html, code), not a enum field",
    ],
    [
      "pattern on a date",
      { namespace: "x", type: "date", pattern: "^2" },
      "fields[0].pattern",
      "fields[0].pattern is only for text fields (string, markdown, html, code), not a date field",
    ],
    [
      "slug on markdown",
      { namespace: "x", type: "markdown", slug: { from: "t" } },
      "fields[0].slug",
      "fields[0].slug is only for string fields, not a markdown field",
    ],
    [
      "default on a relation",
      { namespace: "x", type: "relation", relation: "article", default: "0192f2c4-7d3a-7b6e-9a1c-2f4b5c6d7e8f" },
      "fields[0].default",
      "fields[0].default is only for fields other than relations and media, not a relation field",
    ],
    [
      "default on an image",
      { namespace: "x", type: "image", default: { url: "https://x" } },
      "fields[0].default",
      "fields[0].default is only for fields other than relations and media, not a image field",
    ],
    ["min above max", { namespace: "x", type: "number", min: 5, max: 1 }, "fields[0].min", "fields[0].min (5) is above max (1)"],
    [
      "minLength above maxLength",
      { namespace: "x", type: "string", minLength: 9, maxLength: 2 },
      "fields[0].minLength",
      "fields[0].minLength (9) is above maxLength (2)",
    ],
    [
      "a list's min not whole",
      { namespace: "x", type: "array", arrayType: "number", min: 1.5 },
      "fields[0].min",
      "fields[0].min of a list is its item count: a whole number from 0",
    ],
    [
      "a negative minLength",
      { namespace: "x", type: "string", minLength: -1 },
      "fields[0].minLength",
      "fields[0].minLength must be a whole number from 0 to 1000000, or null",
    ],
    [
      "patternMessage without a pattern",
      { namespace: "x", type: "string", patternMessage: "Nope" },
      "fields[0].patternMessage",
      "fields[0].patternMessage needs a pattern",
    ],
    ["a default of the wrong kind", { namespace: "x", type: "number", default: "3" }, "fields[0].default", "fields[0].default must be a number"],
    [
      "a default outside the enum",
      { namespace: "x", type: "enum", options: { values: ["a", "b"] }, default: "c" },
      "fields[0].default",
      "fields[0].default must be one of: a, b",
    ],
    [
      "a default on a unique field",
      { namespace: "x", type: "string", unique: true, default: "same" },
      "fields[0].default",
      "fields[0].default cannot be set on a unique field: every new entry would take the same value",
    ],
    [
      "help over 300 characters",
      { namespace: "x", type: "string", help: "h".repeat(301) },
      "fields[0].help",
      "fields[0].help must be text of at most 300 characters, or null",
    ],
    [
      "a slug that is not an object",
      { namespace: "x", type: "string", slug: "title" },
      "fields[0].slug",
      'fields[0].slug must be { from: "<namespace of a text field>" } or null',
    ],
  ];
  for (const [name, field, at, error] of cases) {
    test(name, async () => {
      const r = await h.json("POST", "/v2/models", { token, body: { name: "Bad", namespace: "bad", fields: [field] } });
      expect([r.status, r.body]).toEqual([400, refusal(at, error)]);
      expect((await h.json("GET", "/v2/models/bad", { token })).status).toBe(404);
    });
  }

  const patterns: [string, string][] = [
    ["(", "fields[0].pattern is not a valid regular expression: missing )"],
    [
      "(a+)+$",
      'fields[0].pattern can backtrack catastrophically: the quantifier of "(a+)+" repeats something that repeats itself; write it without the nested repetition',
    ],
    [
      "^(\\w+\\s?)*$",
      'fields[0].pattern can backtrack catastrophically: the quantifier of "(\\\\w+\\\\s?)*" repeats something that repeats itself; write it without the nested repetition',
    ],
    [
      "(?:x*){2,}",
      'fields[0].pattern can backtrack catastrophically: the quantifier of "(?:x*){2,}" repeats something that repeats itself; write it without the nested repetition',
    ],
    ["(a)\\1", "fields[0].pattern uses a back-reference, which cannot be checked in linear time"],
    ["^(?=.*\\d).+$", "fields[0].pattern uses a lookahead or lookbehind, which cannot be checked in linear time"],
  ];
  for (const [pattern, error] of patterns) {
    test(`pattern ${JSON.stringify(pattern)}`, async () => {
      const r = await h.json("POST", "/v2/models", { token, body: { name: "Bad", namespace: "bad", fields: [{ namespace: "x", type: "string", pattern }] } });
      expect([r.status, r.body]).toEqual([400, refusal("fields[0].pattern", error)]);
    });
  }

  test("slug sources: a missing field, the slug itself, a field that is not text", async () => {
    const fields = [
      { namespace: "n", type: "number" },
      { namespace: "s", type: "string", slug: { from: "nope" } },
    ];
    const missing = await h.json("POST", "/v2/models", { token, body: { name: "Bad", namespace: "bad", fields } });
    expect(missing.body).toEqual(refusal("fields[1].slug.from", 'fields[1].slug.from: "nope" is no field of this model'));
    const self = await h.json("POST", "/v2/models", {
      token,
      body: { name: "Bad", namespace: "bad", fields: [fields[0], { ...fields[1], slug: { from: "s" } }] },
    });
    expect(self.body).toEqual(refusal("fields[1].slug.from", 'fields[1].slug.from: "s" is the slug field itself; name the text field the slug is made from'));
    const number = await h.json("POST", "/v2/models", {
      token,
      body: { name: "Bad", namespace: "bad", fields: [fields[0], { ...fields[1], slug: { from: "n" } }] },
    });
    expect(number.status).toBe(400);
    expect(number.body).toEqual(
      refusal("fields[1].slug.from", 'fields[1].slug.from: "n" is a number field; a slug is made from a text field (string, markdown, html, code)'),
    );
  });

  test("on an edit: a setting kept from before a change of type, and removing a slug's source", async () => {
    await h.json("POST", "/v2/models", {
      token,
      body: {
        name: "Page",
        namespace: "page",
        fields: [
          { namespace: "title", type: "string", maxLength: 10 },
          { namespace: "slug", type: "string", slug: { from: "title" } },
        ],
      },
    });
    const before = (await h.json("GET", "/v2/models/page", { token })).body;
    const [title] = before.fields;
    const typed = await h.json("PATCH", "/v2/models/page", { token, body: { editFields: [{ id: title.id, type: "number" }] } });
    expect(typed.body).toEqual(
      refusal(
        "editFields[0].maxLength",
        "editFields[0].maxLength is only for text fields (string, markdown, html, code), not a number field; send maxLength: null with the new type",
      ),
    );
    const gone = await h.json("PATCH", "/v2/models/page", { token, body: { removeIds: [title.id] } });
    expect(gone.body).toEqual(
      refusal("fields", 'The slug of field "slug" takes it from "title", which is no field of this model after this change; change its slug first'),
    );
    expect((await h.json("GET", "/v2/models/page", { token })).body).toEqual(before);
  });
});
