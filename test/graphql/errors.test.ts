// GraphQL errors (interface.md, "GraphQL errors" and "Limits: GraphQL"): whole-request refusals
// answer `errors` and no `data` with the refusal's status; a root field whose read fails is null
// with its error at its path while other root fields keep their data. Every code the spec names
// is provoked here, and every limit refusal states the measured value and the limit.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type Harness } from "../harness.ts";
import { expectGqlError, expectRefusal, fixture, type Fixture, type GqlAnswer } from "./fixture.ts";

let h: Harness;
let f: Fixture;

beforeAll(async () => {
  h = startApp();
  f = await fixture(h);
});
afterAll(() => h.close());

const post = async (key: string | null, body: unknown, headers: Record<string, string> = {}): Promise<GqlAnswer> =>
  h.json("POST", "/api/graphql", {
    headers: { ...(key ? { "x-api-key": key } : {}), ...headers },
    ...(typeof body === "string" ? { raw: body, headers: { "content-type": "application/json", ...(key ? { "x-api-key": key } : {}), ...headers } } : { body }),
  });

describe("whole-request refusals", () => {
  test("a batch (JSON array body) is invalid_parameter with param body", async () => {
    const r = await post(f.dev, [{ query: "{ version }" }, { query: "{ version }" }]);
    expectRefusal(r, 400, "invalid_parameter", "invalid_request", { param: "body", message: "Batching is not supported: send one operation per request." });
  });

  test("several operations with one unnamed: graphql_validation_failed asking to name every operation", async () => {
    const r = await post(f.dev, { query: "query A { version } { version }", operationName: "A" });
    expectRefusal(r, 400, "graphql_validation_failed", "invalid_request", {
      hint: "Name every operation and pick one with operationName.",
      message: "The document has 2 operations and not every one is named.",
    });
    const named = await post(f.dev, { query: "query A { version } query B { v: version }", operationName: "B" });
    expect(named.status).toBe(200);
    expect(named.body.data).toEqual({ v: "2026-10-01" });
    const unpicked = await post(f.dev, { query: "query A { version } query B { v: version }" });
    expectRefusal(unpicked, 400, "graphql_validation_failed", "invalid_request", {
      hint: "Name every operation",
      message: "The document has 2 operations; pick one with operationName.",
    });
    const unknown = await post(f.dev, { query: "query A { version }", operationName: "C" });
    expectRefusal(unknown, 400, "graphql_validation_failed", "invalid_request", { message: 'The document has no operation named "C".' });
  });

  test("a document that does not parse or validate: graphql_validation_failed with locations", async () => {
    const syntax = await post(f.dev, { query: "{ version " });
    expectRefusal(syntax, 400, "graphql_validation_failed", "invalid_request", { message: /Syntax Error/ });
    const invalid = await post(f.dev, { query: "{ nope item { nodes { alsoNope } } }" });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body)).toEqual(["errors", "extensions"]);
    expect(invalid.body.errors).toHaveLength(2);
    for (const e of invalid.body.errors) {
      expectGqlError(e, "graphql_validation_failed", "invalid_request");
      expect(e.locations).toHaveLength(1);
    }
    expect(invalid.body.errors[0].message).toBe('Cannot query field "nope" on type "Query". Did you mean "node" or "nodes"?');
    const vars = await post(f.dev, { query: "query($n: Int!) { item(first: $n) { nodes { id } } }", variables: { n: "x" } });
    expectRefusal(vars, 400, "graphql_validation_failed", "invalid_request", { message: /Variable "\$n" got invalid value "x"/ });
  });

  test("a mutation is 405 mutations_not_enabled", async () => {
    const r = await post(f.dev, { query: "mutation { version }" });
    expectRefusal(r, 405, "mutations_not_enabled", "method");
  });

  test("101 ids in nodes: nodes is null with invalid_parameter (param ids) at its path; earlier roots keep their data", async () => {
    const ids = Array.from({ length: 101 }, () => crypto.randomUUID());
    const r = await post(f.dev, { query: "query($ids: [ID!]!) { version nodes(ids: $ids) { id } }", variables: { ids } });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ version: "2026-10-01", nodes: null });
    expect(r.body.errors).toHaveLength(1);
    const e = r.body.errors[0];
    expectGqlError(e, "invalid_parameter", "invalid_request", { param: "ids", path: ["nodes"] });
    expect(e.message).toBe("nodes takes at most 100 ids; got 101.");
    expect(e.extensions.hint).toBe("Send at most 100 ids per nodes field.");
    expect(e.locations).toEqual([{ line: 1, column: 31 }]);
    // Nothing was read for it: the cost counts no entry of the failed field.
    expect(r.body.extensions.cost).toEqual({ requestedQueryCost: 0, actualQueryCost: 0, budget: { counted: 0, limit: 5000 } });
    // The same with the ids written in the document, and under an alias.
    const inline = await post(f.dev, { query: `{ version many: nodes(ids: [${ids.map((i) => `"${i}"`).join(",")}]) { id } }` });
    expect(inline.status).toBe(200);
    expect(inline.body.data).toEqual({ version: "2026-10-01", many: null });
    expect(inline.body.errors.map((x: any) => [x.extensions.code, x.extensions.param, x.path])).toEqual([["invalid_parameter", "ids", ["many"]]]);
    const ok = await post(f.dev, { query: "query($ids: [ID!]!) { nodes(ids: $ids) { id } }", variables: { ids: ids.slice(0, 100) } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.nodes).toHaveLength(100);
  });

  test("11 entry root fields: too_many_root_fields; version and me do not count", async () => {
    const roots = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `r${i}: item(first: 1) { nodes { id } }`).join(" ")} version me { keyId } }`;
    expect((await post(f.dev, { query: roots(10) })).status).toBe(200);
    const r = await post(f.dev, { query: roots(11) });
    expectRefusal(r, 400, "too_many_root_fields", "invalid_request", { message: "The query has 11 entry root fields; the limit is 10." });
  });

  test("4 sort values: invalid_sort with param sort", async () => {
    const r = await post(f.dev, { query: "{ item(sort: [price_ASC, title_ASC, id_ASC, createdAt_ASC]) { nodes { id } } }" });
    expectRefusal(r, 400, "invalid_sort", "invalid_request", { param: "sort", message: "sort takes up to 3 values; got 4." });
  });

  test("first and last outside 1 to 200: invalid_limit", async () => {
    expectRefusal(await post(f.dev, { query: "{ item(first: 201) { nodes { id } } }" }), 400, "invalid_limit", "invalid_request", {
      param: "first",
      message: "first must be from 1 to 200; got 201.",
    });
    expectRefusal(await post(f.dev, { query: "{ item(first: 0) { nodes { id } } }" }), 400, "invalid_limit", "invalid_request", {
      param: "first",
      message: "first must be from 1 to 200; got 0.",
    });
    expectRefusal(
      await post(f.dev, { query: "query($l: Int) { item(last: $l) { nodes { id } } }", variables: { l: 500 } }),
      400,
      "invalid_limit",
      "invalid_request",
      { param: "last", message: "last must be from 1 to 200; got 500." },
    );
    // A first bound to an unsent variable or null takes the default.
    const d = await post(f.dev, { query: "query($n: Int) { item(first: $n) { nodes { id } } a: item(first: null) { nodes { id } } }" });
    expect(d.status).toBe(200);
    expect(d.body.extensions.cost.requestedQueryCost).toBe(50);
  });

  test("cost over 5000: query_too_costly before anything runs", async () => {
    const r = await post(f.dev, { query: "{ item(first: 200) { nodes { authors(first: 30) { nodes { id } } } } }", extensions: { svc: true } });
    const e = expectRefusal(r, 400, "query_too_costly", "invalid_request", { message: "The query could return 6200 entries; the budget is 5000." });
    expect(e.extensions.code).toBe("query_too_costly");
    expect(r.body.extensions.cost).toEqual({ requestedQueryCost: 6200, actualQueryCost: 0, budget: { counted: 6200, limit: 5000 } });
    // An unwritten nested first counts 10 in the budget: 200 x (1 + 10) fits.
    const fits = await post(f.dev, { query: "{ item(first: 200) { nodes { authors { nodes { id } } } } }" });
    expect(fits.status).toBe(200);
    expect(fits.body.extensions.cost).toMatchObject({ requestedQueryCost: 200 * 101, budget: { counted: 200 * 11, limit: 5000 } });
  });

  test("more than 12 selection levels: query_too_deep", async () => {
    const chain = (n: number) => `{ authorById(id: "${f.a.ann.id}") { ${"mentor { ".repeat(n)}name${" }".repeat(n)} } }`;
    expect((await post(f.dev, { query: chain(10) })).body.errors?.[0]?.extensions.code).not.toBe("query_too_deep");
    const r = await post(f.dev, { query: chain(12) });
    expectRefusal(r, 400, "query_too_deep", "invalid_request", { message: "The query nests 14 selection levels; the limit is 12." });
  });

  test("bracket nesting over 128, checked before parsing: query_too_deep", async () => {
    const r = await post(f.dev, { query: `{ version(a: ${"[".repeat(130)}${"]".repeat(130)}) }` });
    expectRefusal(r, 400, "query_too_deep", "invalid_request", { message: "The query document nests brackets 132 levels deep; the limit is 128." });
    // Variables nest no deeper than the document may.
    const deepVars = `{"query":"query($v: JSON) { version }","variables":{"v":${"[".repeat(130)}${"]".repeat(130)}}}`;
    expectRefusal(await post(f.dev, deepVars), 400, "query_too_deep", "invalid_request", {
      message: "The POST body nests brackets 132 levels deep; the limit is 128.",
    });
    // Brackets inside strings and comments do not count.
    const quoted = await post(f.dev, {
      query: `{ version } # ${"{".repeat(200)}\n query B { x: item(filter: { title: { eq: "${"(".repeat(200)}" } }) { nodes { id } } }`,
      operationName: "B",
    });
    expect(quoted.body.errors?.[0]?.extensions.code).not.toBe("query_too_deep");
  });

  test("sizes: document 32 KB, variables 32 KB, POST body 64 KB, GET URL 8 KB", async () => {
    const big = `{ version }${" ".repeat(32_768)}`;
    expectRefusal(await post(f.dev, { query: big }), 400, "query_too_large", "invalid_request", {
      message: `The query document is ${32_768 + 11} bytes; the limit is 32768.`,
    });
    const vars = { s: "x".repeat(33_000) };
    expectRefusal(await post(f.dev, { query: "query($s: String) { version }", variables: vars }), 400, "query_too_large", "invalid_request", {
      message: `The variables JSON is ${JSON.stringify(vars).length} bytes; the limit is 32768.`,
    });
    const body = JSON.stringify({ query: "{ version }", extensions: { pad: "y".repeat(70_000) } });
    expectRefusal(await post(f.dev, body), 400, "query_too_large", "invalid_request", {
      message: `The POST body is ${body.length} bytes; the limit is 65536.`,
    });
    const url = `/api/graphql?query=${encodeURIComponent("{ version }")}&pad=${"z".repeat(8200)}`;
    const g = await h.json("GET", url, { headers: { "x-api-key": f.dev } });
    expectRefusal(g, 400, "query_too_large", "invalid_request", { message: `The GET URL is ${url.length} bytes; the limit is 8192.` });
  });

  test("an unknown persisted query: PersistedQueryNotFound", async () => {
    const r = await post(f.dev, { extensions: { persistedQuery: { version: 1, sha256Hash: "a".repeat(64) } } });
    expectRefusal(r, 400, "persisted_query_not_found", "invalid_request", { message: "PersistedQueryNotFound" });
  });

  test("the /api shell's refusals come in the GraphQL shape with their status", async () => {
    const missing = await post(null, { query: "{ version }" });
    expectRefusal(missing, 401, "missing_key", "authentication", { param: "x-api-key" });
    const bad = await post("svc_live_nope-nope-nope-nope", { query: "{ version }" });
    expectRefusal(bad, 401, "invalid_key", "authentication", { param: "x-api-key" });
    const version = await post(f.dev, { query: "{ version }" }, { "svc-version": "1999-01-01" });
    expectRefusal(version, 400, "invalid_version", "invalid_request", { param: "Svc-Version" });
    const contract = await post(f.dev, { query: "{ version }" }, { "svc-contract": "2" });
    expectRefusal(contract, 404, "contract_not_found", "not_found", { param: "Svc-Contract" });
    expect(contract.headers.get("svc-key-id")).toBeTruthy();
    const json = await post(f.dev, "{ not json");
    expectRefusal(json, 400, "invalid_json", "invalid_request", { param: "body" });
    const noQuery = await post(f.dev, {});
    expectRefusal(noQuery, 400, "invalid_parameter", "invalid_request", { param: "query" });
  });
});

describe("root fields fail alone", () => {
  const field = async (query: string, variables?: Record<string, unknown>) => {
    const r = await f.gql(f.dev, query, variables);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["data", "errors", "extensions"]);
    expect(r.body.data.ok).toEqual({ nodes: [{ title: "Alpha" }] });
    expect(r.body.errors).toHaveLength(1);
    return r.body.errors[0];
  };
  const OK = 'ok: item(filter: { title: { eq: "Alpha" } }) { nodes { title } }';

  test("first with before; last with first or after: invalid_parameter", async () => {
    const c = (await f.gql(f.dev, "{ item(first: 1) { pageInfo { endCursor } } }")).body.data.item.pageInfo.endCursor;
    const a = await field(`{ bad: item(first: 2, before: "${c}") { nodes { id } } ${OK} }`);
    expectGqlError(a, "invalid_parameter", "invalid_request", { param: "before", path: ["bad"] });
    expect(a.message).toBe("first takes after, not before.");
    expect(a.locations).toEqual([{ line: 1, column: 3 }]);
    const b = await field(`{ bad: item(last: 2, first: 2) { nodes { id } } ${OK} }`);
    expectGqlError(b, "invalid_parameter", "invalid_request", { param: "last", path: ["bad"] });
    expect(b.message).toBe("last cannot be sent with first.");
    const d = await field(`{ bad: item(last: 2, after: "${c}") { nodes { id } } ${OK} }`);
    expectGqlError(d, "invalid_parameter", "invalid_request", { param: "last", path: ["bad"] });
    expect(d.message).toBe("last cannot be sent with after.");
    const both = await field(`{ bad: item(after: "${c}", before: "${c}") { nodes { id } } ${OK} }`);
    expectGqlError(both, "invalid_parameter", "invalid_request", { param: "before", path: ["bad"] });
    expect(both.message).toBe("Send after or before, not both.");
  });

  test("a non-UUID id: invalid_parameter with the hint that entry ids are UUIDs", async () => {
    for (const [q, param] of [
      ['itemById(id: "42")', "id"],
      ['entry(id: "42")', "id"],
      ['node(id: "x")', "id"],
      ['nodes(ids: ["x"])', "ids"],
    ] as const) {
      const name = q.slice(0, q.indexOf("("));
      const e = await field(`{ bad: ${q} { id } ${OK} }`);
      expectGqlError(e, "invalid_parameter", "invalid_request", { param, path: ["bad"], hint: "Entry ids are UUIDs" });
      expect({ name, message: e.message }).toEqual({ name, message: "Entry ids are UUIDs." });
    }
  });

  test("invalid_filter_value: a null value, an operator object with no operator, an unset variable inside an operator, an empty not", async () => {
    const cases: [string, Record<string, unknown>?][] = [
      ["{ title: null }"],
      ["{ title: { eq: null } }"],
      ["{ title: {} }"],
      ["{ not: {} }"],
      ["{ and: [] }"],
      ["{ title: { eq: $t } }", {}],
      ['{ title: { eq: $t, ne: "x" } }', {}],
      ["{ author: { name: { eq: $t } } }", {}],
    ];
    for (const [filter, vars] of cases) {
      const q = vars ? `query($t: String) { bad: item(filter: ${filter}) { nodes { id } } ${OK} }` : `{ bad: item(filter: ${filter}) { nodes { id } } ${OK} }`;
      const e = await field(q, vars);
      expect({ filter, code: e.extensions.code }).toEqual({ filter, code: "invalid_filter_value" });
      expectGqlError(e, "invalid_filter_value", "invalid_request", { param: "filter", path: ["bad"] });
    }
    // Only the whole filter may be absent or null.
    const whole = await f.gql(f.dev, "query($f: ItemFilter) { a: item(filter: $f) { nodes { id } } b: item(filter: null) { nodes { id } } }");
    expect(whole.body.errors).toBeUndefined();
  });

  test("a failing nodes read is null at path nodes; earlier root fields keep their data", async () => {
    const r = await f.gql(f.dev, `{ ok: item(filter: { title: { eq: "Alpha" } }) { nodes { title } } nodes(ids: ["${f.e.Alpha!.id}", "nope"]) { id } }`);
    expect(r.body.data).toEqual({ ok: { nodes: [{ title: "Alpha" }] }, nodes: null });
    expectGqlError(r.body.errors[0], "invalid_parameter", "invalid_request", { param: "ids", path: ["nodes"] });
  });
});
