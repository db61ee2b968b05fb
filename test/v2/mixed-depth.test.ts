// Hardening item 4: a `mixed` value (or an item of an array of mixed) nested deeper than 64
// levels is refused on write with 400 naming the field, nothing written, and never a RangeError;
// a value exactly 64 deep is stored and every read, sort, bulk and publish over it works.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";

/** A value nested `depth` levels: the outermost container is level 1, alternating arrays and objects. */
function nested(depth: number): unknown {
  let v: unknown = "leaf";
  for (let i = depth; i >= 1; i--) v = i % 2 ? [v] : { k: v };
  return v;
}

/** The JSON text of nested(depth), built without recursion (JSON.stringify would overflow at 100,000). */
function nestedText(depth: number): string {
  let open = "";
  let close = "";
  for (let i = 1; i <= depth; i++) {
    open += i % 2 ? "[" : '{"k":';
  }
  for (let i = depth; i >= 1; i--) close += i % 2 ? "]" : "}";
  return `${open}"leaf"${close}`;
}

const DEEP = (field: string) => ({
  error: `${field} nests deeper than 64 levels`,
  code: "invalid_body",
  field,
});

describe("mixed values nested too deep", () => {
  let h: Harness;
  let token: string;
  let devKey: string;
  let entryId: string;
  beforeAll(async () => {
    h = startApp();
    ({ token } = await withOwner(h));
    const m = await h.json("POST", "/v2/models", {
      token,
      body: {
        name: "Doc",
        namespace: "doc",
        fields: [
          { namespace: "title", type: "string" },
          { namespace: "meta", type: "mixed" },
          { namespace: "extras", type: "array", arrayType: "mixed" },
        ],
      },
    });
    expect(m.status).toBe(201);
    const k = await h.json("POST", "/v2/tenants/api-keys", { token, body: { name: "dev", environment: "development", scopes: ["instance:read"] } });
    expect(k.status).toBe(201);
    devKey = k.body.apiKey;
    const e = await h.json("POST", "/v2/model-instances", { token, body: { model: "doc", data: { title: "Kept", meta: { a: 1 } } } });
    expect(e.status).toBe(201);
    entryId = e.body.id;
  });
  afterAll(() => h.close());

  const count = async (): Promise<number> => (await h.json("GET", "/v2/model-instances?model=doc", { token })).body.total;

  test.each([
    ["meta 1,000 deep", 1000, (t: string) => `{"model":"doc","data":{"title":"x","meta":${t}}}`, "data.meta"],
    ["meta 100,000 deep", 100_000, (t: string) => `{"model":"doc","data":{"title":"x","meta":${t}}}`, "data.meta"],
    ["meta 65 deep", 65, (t: string) => `{"model":"doc","data":{"title":"x","meta":${t}}}`, "data.meta"],
    ["extras[1] 1,000 deep", 1000, (t: string) => `{"model":"doc","data":{"title":"x","extras":[1,${t}]}}`, "data.extras[1]"],
    ["extras[0] 100,000 deep", 100_000, (t: string) => `{"model":"doc","data":{"extras":[${t}]}}`, "data.extras[0]"],
  ])("create with %s answers 400 naming the field and writes nothing", async (_name, depth, body, field) => {
    const before = await count();
    expect(before).toBe(1);
    const r = await h.json("POST", "/v2/model-instances", { token, raw: body(nestedText(depth)), headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(DEEP(field));
    expect(await count()).toBe(before);
  });

  test("an update 1,000 deep answers 400 and leaves the entry as it was", async () => {
    const before = await h.json("GET", `/v2/model-instances/${entryId}`, { token });
    const r = await h.json("PATCH", `/v2/model-instances/${entryId}`, {
      token,
      raw: `{"data":{"meta":${nestedText(1000)}}}`,
      headers: { "content-type": "application/json" },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(DEEP("data.meta"));
    const after = await h.json("GET", `/v2/model-instances/${entryId}`, { token });
    expect(after.body).toEqual(before.body);
  });

  test("64 deep is stored; filtered and sorted reads, bulk by where and publishing all work", async () => {
    const value = nested(64);
    const made = await h.json("POST", "/v2/model-instances", { token, body: { model: "doc", data: { title: "Deep", meta: value, extras: [value] } } });
    expect(made.status).toBe(201);
    expect(made.body.draft.data.meta).toEqual(value);
    expect(made.body.draft.data.extras).toEqual([value]);
    const where = encodeURIComponent(JSON.stringify({ title: { eq: "Deep" } }));
    const filtered = await h.json("GET", `/api/entries/doc?where=${where}&select=title`, { headers: { "x-api-key": devKey } });
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.map((e: { id: string }) => e.id)).toEqual([made.body.id]);
    const sorted = await h.json("GET", "/api/entries/doc?sort=-title&select=title", { headers: { "x-api-key": devKey } });
    expect(sorted.status).toBe(200);
    expect(sorted.body.data.map((e: { title: string }) => e.title)).toEqual(["Kept", "Deep"]);
    const full = await h.json("GET", `/api/entries/doc?where=${where}`, { headers: { "x-api-key": devKey } });
    expect(full.status).toBe(200);
    expect(full.body.data[0].meta).toEqual(value);
    const dry = await h.json("POST", "/v2/model-instances/bulk-publish", { token, body: { modelId: "doc", where: { title: { eq: "Deep" } }, dryRun: true } });
    expect(dry.status).toBe(200);
    const bulk = await h.json("POST", "/v2/model-instances/bulk-publish", { token, body: { modelId: "doc", where: { title: { eq: "Deep" } } } });
    expect(bulk.status).toBe(200);
    expect(bulk.body).toMatchObject({ action: "publish", count: 1, counts: { done: 1 } });
    const unpub = await h.json("POST", `/v2/model-instances/${made.body.id}/unpublish`, { token });
    expect(unpub.status).toBe(200);
    const pub = await h.json("POST", `/v2/model-instances/${made.body.id}/publish`, { token });
    expect(pub.status).toBe(200);
    expect(pub.body.status).toBe("published");
    expect(pub.body.published.data.meta).toEqual(value);
  });
});

describe("a body nested 100,000 levels with an Idempotency-Key", () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = startApp();
    ({ token } = await withOwner(h));
  });
  afterAll(() => h.close());

  test.each([
    ["/v2/model-instances/bulk-publish", "instanceIds", { error: "instanceIds[0] must be an entry id (UUID)", code: "invalid_body", field: "instanceIds[0]" }],
    [
      "/v2/scheduled-actions",
      "x",
      { error: "x is not a field of this request; send action, targets, wallTime, timezone, versionId", code: "invalid_body", field: "x" },
    ],
  ])("POST %s reaches validation: the 400 it answers without the header, not a 500", async (path, key, answer) => {
    const raw = `{"${key}":${nestedText(100_000)}}`;
    for (const headers of [{}, { "idempotency-key": "deep-1" }] as Record<string, string>[]) {
      const r = await h.json("POST", path, { token, raw, headers: { "content-type": "application/json", ...headers } });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(answer);
    }
  });
});
