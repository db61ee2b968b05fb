// The rules of decisions.md 15 on entries: `409 not_unique` on every save, `400
// validation_failed` listing every broken rule at publish (nothing published), drafts that break
// rules, slugs filled and made unique, defaults, and POST /v2/model-instances/validate. Every
// refusal is checked whole, and the entry and its versions after it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";

let h: Harness;
let token: string;
beforeAll(async () => {
  h = startApp();
  ({ token } = await withOwner(h));
  const r = await h.json("POST", "/v2/models", {
    token,
    body: {
      name: "Article",
      namespace: "article",
      fields: [
        { namespace: "title", type: "string", label: "Title", required: true, minLength: 3, maxLength: 20 },
        { namespace: "slug", type: "string", label: "Slug", slug: { from: "title" } },
        { namespace: "sku", type: "string", label: "SKU", unique: true, pattern: "^[A-Z]{3}-\\d{3}$", patternMessage: "SKU looks like ABC-123" },
        { namespace: "code", type: "string", pattern: "^x" },
        { namespace: "rating", type: "number", min: 1, max: 5, default: 3 },
        { namespace: "day", type: "date", unique: true },
        { namespace: "tags", type: "array", arrayType: "string", label: "Tags", min: 2, max: 3 },
        { namespace: "status", type: "enum", options: { values: ["a", "b"] }, default: "b" },
      ],
    },
  });
  expect(r.status).toBe(201);
});
afterAll(() => h.close());

const create = async (data: Record<string, unknown>) => {
  const r = await h.json("POST", "/v2/model-instances", { token, body: { model: "article", data } });
  if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  return r.body;
};
const get = async (id: string) => (await h.json("GET", `/v2/model-instances/${id}`, { token })).body;
const versions = async (id: string) => (await h.json("GET", `/v2/model-instances/${id}/versions`, { token })).body.data;
const notUnique = (label: string, field: string, value: unknown, entryId: string) => ({
  error: `${label} must be unique: another entry of this model already has ${JSON.stringify(value)}.`,
  code: "not_unique",
  field,
  entryId,
});

describe("defaults and slugs on create", () => {
  test("a new entry takes the defaults of the fields it leaves out (not of those sent as null), and a slug from its title", async () => {
    const e = await create({ title: "Hello, Wörld!", status: null });
    expect(e.draft.data).toEqual({ title: "Hello, Wörld!", slug: "hello-world", sku: null, code: null, rating: 3, day: null, tags: null, status: null });
  });

  test("a slug another entry holds gets -2, -3; a slug typed by hand is kept; a title without letters leaves it empty", async () => {
    expect((await create({ title: "Hello world" })).draft.data.slug).toBe("hello-world-2");
    expect((await create({ title: "Hello world" })).draft.data.slug).toBe("hello-world-3");
    expect((await create({ title: "Other", slug: "hand-made" })).draft.data.slug).toBe("hand-made");
    expect((await create({ title: "!!!" })).draft.data.slug).toBeNull();
  });

  test("an emptied slug is filled again on save from the current title", async () => {
    const e = await create({ title: "Refill me" });
    const r = await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body: { data: { title: "Refilled", slug: null } } });
    expect(r.body.draft.data.slug).toBe("refilled");
  });
});

describe("unique: 409 not_unique on every save", () => {
  let holder: any;
  beforeAll(async () => {
    holder = await create({ title: "Holder", sku: "ABC-123", day: "2026-05-01" });
  });

  test("create: refused whole, nothing written", async () => {
    const before = (await h.json("GET", "/v2/model-instances?model=article", { token })).body.total;
    const r = await h.json("POST", "/v2/model-instances", { token, body: { model: "article", data: { title: "Copy", sku: "ABC-123" } } });
    expect([r.status, r.body]).toEqual([409, notUnique("SKU", "data.sku", "ABC-123", holder.id)]);
    expect((await h.json("GET", "/v2/model-instances?model=article", { token })).body.total).toBe(before);
  });

  test("a date compares as an instant: midnight UTC is the same day", async () => {
    const r = await h.json("POST", "/v2/model-instances", { token, body: { model: "article", data: { title: "Same day", day: "2026-05-01T00:00:00Z" } } });
    expect([r.status, r.body]).toEqual([409, notUnique("day", "data.day", "2026-05-01T00:00:00Z", holder.id)]);
  });

  test("PATCH: refused, the entry and its versions unchanged; a slug typed by hand that another holds too", async () => {
    const e = await create({ title: "Second" });
    const r = await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body: { data: { sku: "ABC-123" } } });
    expect([r.status, r.body]).toEqual([409, notUnique("SKU", "data.sku", "ABC-123", holder.id)]);
    const slug = await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body: { data: { slug: holder.draft.data.slug } } });
    expect([slug.status, slug.body]).toEqual([409, notUnique("Slug", "data.slug", holder.draft.data.slug, holder.id)]);
    expect(await get(e.id)).toEqual(e);
    expect(await versions(e.id)).toHaveLength(1);
  });

  test("the published copy counts: a value the holder's draft dropped but its live copy holds is still taken", async () => {
    const live = await create({ title: "Live one", sku: "LIV-001" });
    expect((await h.json("POST", `/v2/model-instances/${live.id}/publish`, { token })).status).toBe(200);
    await h.json("PATCH", `/v2/model-instances/${live.id}`, { token, body: { data: { sku: "LIV-002" } } });
    const r = await h.json("POST", "/v2/model-instances", { token, body: { model: "article", data: { title: "Taker", sku: "LIV-001" } } });
    expect([r.status, r.body]).toEqual([409, notUnique("SKU", "data.sku", "LIV-001", live.id)]);
  });

  test("empty values are not compared, and an entry's own value is not a clash", async () => {
    await create({ title: "Empty one", sku: "" });
    await create({ title: "Empty two", sku: "" });
    const r = await h.json("PATCH", `/v2/model-instances/${holder.id}`, { token, body: { data: { sku: "ABC-123", title: "Holder!" } } });
    expect(r.status).toBe(200);
  });

  test("restoring an old version whose unique value another entry took since is refused", async () => {
    const e = await create({ title: "Mover", sku: "MOV-001" });
    await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body: { data: { sku: "MOV-002" } } });
    const taker = await create({ title: "Taker two", sku: "MOV-001" });
    const r = await h.json("POST", `/v2/model-instances/${e.id}/versions/${e.draft.versionId}/restore`, { token });
    expect([r.status, r.body]).toEqual([409, notUnique("SKU", "data.sku", "MOV-001", taker.id)]);
    expect(await versions(e.id)).toHaveLength(2);
  });

  test("an entry in the trash holds nothing", async () => {
    const e = await create({ title: "Trashed", sku: "TRA-001" });
    await h.json("DELETE", `/v2/model-instances/${e.id}`, { token });
    expect((await h.json("POST", "/v2/model-instances", { token, body: { model: "article", data: { title: "New owner", sku: "TRA-001" } } })).status).toBe(201);
  });
});

describe("publish: 400 validation_failed with every broken rule", () => {
  test("drafts may break the rules; publishing lists them all, names labels, and publishes nothing", async () => {
    const e = await create({ title: "No", sku: "bad", code: "y", rating: 9, tags: ["one"] });
    expect(e.status).toBe("draft");
    const file = h.capa.services.projects.get((await h.json("GET", "/v2/projects", { token })).body.data[0].id).sqlite;
    const events = () => file.query("SELECT count(*) AS n FROM events").get();
    const before = events();
    const r = await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token });
    const errors = [
      { field: "data.title", rule: "minLength", message: "Title must be at least 3 characters long (it has 2)" },
      { field: "data.sku", rule: "pattern", message: "SKU looks like ABC-123" },
      { field: "data.code", rule: "pattern", message: "code does not have the required form (pattern ^x)" },
      { field: "data.rating", rule: "max", message: "rating must be at most 5 (it is 9)" },
      { field: "data.tags", rule: "min", message: "Tags must hold at least 2 items (it holds 1)" },
    ];
    expect([r.status, r.body]).toEqual([
      400,
      { error: `The entry breaks 5 rules: ${errors.map((x) => x.message).join("; ")}.`, code: "validation_failed", field: "data.title", errors },
    ]);
    expect(await get(e.id)).toEqual(e);
    expect(events()).toEqual(before);
  });

  test("required, length in characters (an emoji is one), bounds of a list and a slug's shape", async () => {
    const e = await create({ title: "🙂🙂🙂", slug: "Not A Slug", tags: ["a", "b", "c", "d"] });
    await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body: { data: { title: null } } });
    const r = await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token });
    expect(r.body.errors).toEqual([
      { field: "data.title", rule: "required", message: "Title is required before the entry can be published" },
      { field: "data.slug", rule: "slug", message: 'Slug must be lowercase letters, digits and single hyphens, such as "my-first-post"' },
      { field: "data.tags", rule: "max", message: "Tags must hold at most 3 items (it holds 4)" },
    ]);
    await h.json("PATCH", `/v2/model-instances/${e.id}`, { token, body: { data: { title: "🙂🙂🙂", slug: "ok-slug", tags: ["a", "b"] } } });
    const ok = await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token });
    expect([ok.status, ok.body.status]).toEqual([200, "published"]);
  });

  test("one broken rule: its sentence is the error", async () => {
    const e = await create({ title: "Fine title", rating: 0 });
    const r = await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token });
    const rule = { field: "data.rating", rule: "min", message: "rating must be at least 1 (it is 0)" };
    expect(r.body).toEqual({ error: rule.message, code: "validation_failed", field: "data.rating", errors: [rule] });
  });

  test("a pattern is checked on a long value (RE2JS: linear time, so no wall-clock bound is needed here)", async () => {
    const e = await create({ title: "Long code", code: `${"y".repeat(500_000)}!` });
    const r = await h.json("POST", `/v2/model-instances/${e.id}/publish`, { token });
    expect(r.body.errors.map((x: any) => x.rule)).toEqual(["pattern"]);
  });
});

describe("POST /v2/model-instances/validate", () => {
  test("a new entry's values: unique clashes with the holder, and every publish rule; nothing written", async () => {
    const holder = await create({ title: "Validated", sku: "VAL-001" });
    const before = (await h.json("GET", "/v2/model-instances?model=article", { token })).body.total;
    const r = await h.json("POST", "/v2/model-instances/validate", {
      token,
      body: { model: "article", data: { title: "Validated", sku: "VAL-001", rating: 7 } },
    });
    expect([r.status, r.body]).toEqual([
      200,
      {
        valid: false,
        errors: [
          // The slug a save would fill ("validated-2") is free, so only the SKU clashes.
          { field: "data.sku", rule: "unique", message: 'SKU must be unique: another entry of this model already has "VAL-001".', entryId: holder.id },
          { field: "data.rating", rule: "max", message: "rating must be at most 5 (it is 7)" },
        ],
      },
    ]);
    expect((await h.json("GET", "/v2/model-instances?model=article", { token })).body.total).toBe(before);
  });

  test("an entry's draft with changes over it; valid when nothing breaks; a value of the wrong kind is refused as a save refuses it", async () => {
    const e = await create({ title: "Draft to check", rating: 9 });
    const r = await h.json("POST", "/v2/model-instances/validate", { token, body: { id: e.id, data: { rating: 4 } } });
    expect(r.body).toEqual({ valid: true, errors: [] });
    const kind = await h.json("POST", "/v2/model-instances/validate", { token, body: { id: e.id, data: { rating: "4" } } });
    expect([kind.status, kind.body]).toEqual([400, { error: "data.rating must be a number", code: "invalid_body", field: "data.rating" }]);
    const none = await h.json("POST", "/v2/model-instances/validate", { token, body: { data: {} } });
    expect(none.body).toEqual({ error: "Send model (for a new entry) or id (for an entry's draft)", code: "invalid_body", field: "model" });
  });
});
