// The read corpus (issue 25): several hundred REST and GraphQL reads of one seeded project, with
// their answers as recorded before the read path was rebuilt. A refactor of the read path must
// give the same status, body and caching headers to every one (request ids and ETag values
// aside: the body holds the request id). The seed runs with a manual clock and counting ids, so
// entry ids, dates and cursors come out the same on every run.
import type { Ids } from "../../src/infra/clock.ts";
import { w } from "../api/seed.ts";
import { fixture, type Fixture } from "../graphql/fixture.ts";
import type { Harness } from "../harness.ts";

/** UUIDv7-shaped ids from a counter: the same sequence on every run. */
export function countingIds(): Ids {
  let n = 0;
  return {
    uuid() {
      n++;
      const hex = n.toString(16).padStart(12, "0");
      return `01900000-0000-7000-8000-${hex}`;
    },
  };
}

/** One read: method, path (query string included), the key it sends, extra headers and a body. */
export interface Case {
  name: string;
  method: "GET" | "POST";
  path: string;
  key: "prod" | "dev" | "itemOnly" | "noRead" | "none";
  headers?: Record<string, string>;
  body?: unknown;
}

/** The answer as the corpus keeps it. */
export interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Headers whose value the corpus compares (the caching and shape headers of interface.md). */
const KEPT = ["content-type", "cache-control", "vary", "surrogate-key", "svc-version", "svc-contract", "allow", "retry-after", "content-encoding"];

/** The answer with request ids and ETag values masked (the ETag hashes a body holding the request id). */
export async function record(res: Response): Promise<Recorded> {
  const headers: Record<string, string> = {};
  for (const k of KEPT) {
    const v = res.headers.get(k);
    if (v !== null) headers[k] = v;
  }
  const etag = res.headers.get("etag");
  if (etag !== null) headers.etag = etag.startsWith('"') ? "<strong>" : "<weak>";
  if (res.headers.get("svc-key-id") !== null) headers["svc-key-id"] = "<key>";
  const text = await res.text();
  let body: unknown = text;
  if (text && (headers["content-type"] ?? "").includes("json")) body = mask(JSON.parse(text));
  return { status: res.status, headers, body };
}

function mask(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(mask);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = k === "requestId" ? "<request>" : k === "keyPrefix" ? "<prefix>" : mask(x);
    return out;
  }
  return v;
}

/** Seeds the corpus project (the GraphQL fixture: every field kind, relations, naming models). */
export async function seedCorpus(h: Harness): Promise<Fixture> {
  return fixture(h);
}

const enc = encodeURIComponent;

/** Every case, in order (later cases may follow cursors of earlier answers, so order matters). */
export function restCases(f: Fixture): Case[] {
  const out: Case[] = [];
  const get = (name: string, path: string, key: Case["key"] = "prod", headers?: Record<string, string>) =>
    out.push({ name, method: "GET", path, key, headers });
  for (const key of ["prod", "dev"] as const) {
    for (const model of ["item", "author", "kitchen", "settings", "2024-reports", "blog-post"]) {
      get(`${key} list ${model}`, `/api/entries/${model}`, key);
      get(`${key} list ${model} count`, `/api/entries/${model}?count=true&limit=2`, key);
    }
    for (const limit of [1, 3, 200]) get(`${key} item limit ${limit}`, `/api/entries/item?limit=${limit}`, key);
    for (const sel of [
      "title",
      "*",
      "title,$createdAt,$tags",
      "title,author(name)",
      "title,authors(name,mentor(name))",
      "title,authors(mentor(mentor(name)))",
      '"odd,name",tags,$tags',
      "cover,gallery,clip,manual",
    ]) {
      get(`${key} select ${sel}`, `/api/entries/item?select=${enc(sel)}`, key);
    }
    for (const sort of [
      "title",
      "-title",
      "price,-title",
      "-price",
      "launch",
      "-launch",
      "onSale,title",
      "size,-price,title",
      "author.name",
      "-author.name",
      "createdAt",
      "-updatedAt",
      "publishedAt",
      "id",
      '"odd,name"',
    ]) {
      get(`${key} sort ${sort}`, `/api/entries/item?sort=${enc(sort)}&select=title`, key);
    }
    const wheres: unknown[] = [
      { title: "Alpha" },
      { title: { ne: "Alpha" } },
      { title: { in: ["Alpha", "Beta"] } },
      { title: { nin: ["Alpha"] } },
      { title: { contains: "lph" } },
      { title: { startsWith: "E" } },
      { title: { endsWith: "a" } },
      { title: { exists: true } },
      { title: { null: true } },
      { price: { gt: 5 } },
      { price: { gte: 10, lt: 40 } },
      { price: { lte: 5.5 } },
      { price: { null: true } },
      { onSale: true },
      { onSale: { ne: true } },
      { launch: { gte: "2026-01-01" } },
      { launch: { lt: "2026-06-15T12:30:00.500Z" } },
      { launch: "2026-01-01" },
      { labels: { has: "red" } },
      { labels: { hasAny: ["blue", "Red"] } },
      { labels: { hasAll: ["red", "blue"] } },
      { labels: { exists: true } },
      { scores: { has: 3 } },
      { flags: { has: false } },
      { days: { has: "2026-01-01" } },
      { authors: { has: f.a.ann!.id } },
      { authors: { hasAny: [f.a.bob!.id, f.a.cid!.id] } },
      { "authors.name": "Bob" },
      { author: f.a.ann!.id },
      { "author.name": { startsWith: "A" } },
      { "author.rank": { gte: 1 } },
      { cover: { exists: true } },
      { meta: { exists: true } },
      { extras: { null: true } },
      { size: { in: ["s", "m"] } },
      { tint: "#ff0000" },
      { $tags: { has: "news" } },
      { $tags: { exists: true } },
      { $status: "published" },
      { $createdAt: { gte: f.publishedAt } },
      { $updatedAt: { gt: f.publishedAt } },
      { $publishedAt: { exists: true } },
      { $id: { in: [f.e.Alpha!.id, f.e.Beta!.id] } },
      { tags: { has: "t1" } },
      { "odd,name": "odd-alpha" },
      { and: [{ price: { gt: 1 } }, { onSale: true }] },
      { or: [{ title: "Alpha" }, { title: "Zeta" }] },
      { not: { title: "Alpha" } },
      { or: [{ and: [{ price: { gt: 1 } }] }, { not: { onSale: true } }] },
    ];
    for (const [i, x] of wheres.entries()) get(`${key} where #${i} ${JSON.stringify(x)}`, `/api/entries/item?${w(x)}&select=title&sort=title`, key);
    get(`${key} before=end`, "/api/entries/item?before=end&limit=2&select=title", key);
    for (const sel of ["name", "*", "name,mentor(name,mentor(name))", "$id,$status,rank"])
      get(`${key} author select ${sel}`, `/api/entries/author?select=${enc(sel)}`, key);
    for (const sort of ["rank", "-rank", "name", "mentor.name", "-mentor.rank"])
      get(`${key} author sort ${sort}`, `/api/entries/author?sort=${enc(sort)}`, key);
    for (const [id, label] of [
      ...Object.entries(f.e).map(([t, x]) => [x.id, t] as const),
      ...Object.entries(f.a).map(([t, x]) => [x.id, `author ${t}`] as const),
      [f.a.dee!.id, "dee (draft)"],
    ]) {
      get(`${key} item ${label}`, `/api/entries/item/${id}`, key);
      get(`${key} item ${label} select`, `/api/entries/item/${id}?select=title,authors(name)`, key);
      get(`${key} author ${label}`, `/api/entries/author/${id}`, key);
    }
  }
  // Errors: the grammar codes, routes, keys and headers.
  const bad: [string, string][] = [
    ["unknown model", "/api/entries/nope"],
    ["bad id", "/api/entries/item/not-a-uuid"],
    ["missing entry", "/api/entries/item/0192f2c4-7d3a-7b6e-9a1c-2f4b5c6d7e8f"],
    ["limit 0", "/api/entries/item?limit=0"],
    ["limit 201", "/api/entries/item?limit=201"],
    ["limit x", "/api/entries/item?limit=x"],
    ["unknown select", "/api/entries/item?select=nope"],
    ["bad select", "/api/entries/item?select=title("],
    ["expand non relation", "/api/entries/item?select=title(x)"],
    ["where not json", "/api/entries/item?where=%7Bnope"],
    ["where array", `/api/entries/item?${w([1])}`],
    ["where unknown field", `/api/entries/item?${w({ nope: 1 })}`],
    ["where bad op", `/api/entries/item?${w({ title: { gt: 1 } })}`],
    ["where bad value", `/api/entries/item?${w({ price: { gt: "x" } })}`],
    ["where null", `/api/entries/item?${w({ title: null })}`],
    ["where empty op", `/api/entries/item?${w({ title: {} })}`],
    ["where empty not", `/api/entries/item?${w({ not: {} })}`],
    ["where bad date", `/api/entries/item?${w({ launch: { gt: "soon" } })}`],
    ["sort unknown", "/api/entries/item?sort=nope"],
    ["sort four", "/api/entries/item?sort=title,price,size,launch"],
    ["sort list", "/api/entries/item?sort=labels"],
    ["cursor bad", "/api/entries/item?after=zzz"],
    ["after and before", "/api/entries/item?after=a&before=b"],
    ["count bad", "/api/entries/item?count=maybe"],
  ];
  for (const [name, path] of bad) get(`error ${name}`, path, "dev");
  get("error no key", "/api/entries/item", "none");
  get("error scope (item only key reads author)", "/api/entries/author", "itemOnly");
  get("item only key reads item", "/api/entries/item?select=title", "itemOnly");
  get("error no instance:read", "/api/entries/item", "noRead");
  get("error version", "/api/entries/item", "prod", { "svc-version": "2020-01-01" });
  get("error contract", "/api/entries/item", "prod", { "svc-contract": "2" });
  get("version header", "/api/entries/item?select=title", "prod", { "svc-version": "2026-10-01" });
  get("me", "/api/me", "prod");
  get("versions", "/api/versions", "none");
  get("route not found", "/api/nope", "prod");
  get("gzip large list", "/api/entries/item?limit=200", "prod", { "accept-encoding": "gzip" });
  return out;
}

/** GraphQL reads, by POST and (a share of them) by GET. */
export function graphqlCases(f: Fixture): Case[] {
  const out: Case[] = [];
  const q = (name: string, query: string, key: Case["key"] = "dev", variables?: Record<string, unknown>, extensions?: Record<string, unknown>) => {
    out.push({ name: `POST ${name}`, method: "POST", path: "/api/graphql", key, body: { query, variables, extensions } });
  };
  const g = (name: string, query: string, key: Case["key"] = "prod", variables?: Record<string, unknown>) => {
    const vs = variables ? `&variables=${enc(JSON.stringify(variables))}` : "";
    out.push({ name: `GET ${name}`, method: "GET", path: `/api/graphql?query=${enc(query)}${vs}`, key });
  };
  const fields =
    "id title price onSale launch labels scores flags days size tint odd_name tags _tags _version status model createdAt updatedAt publishedAt _folder";
  for (const key of ["prod", "dev"] as const) {
    q(`${key} list all fields`, `{ item(sort: [title_ASC]) { nodes { ${fields} } } }`, key);
    q(
      `${key} list media`,
      "{ item(sort: [title_ASC]) { nodes { title cover { id url alt type width height } gallery { url } clip { type } manual { alt } meta extras } } }",
      key,
    );
    q(
      `${key} list relations`,
      "{ item(sort: [title_ASC]) { nodes { title author { name rank mentor { name } } authors { nodes { name } pageInfo { hasNextPage endCursor } } } } }",
      key,
    );
    q(
      `${key} list edges`,
      "{ item(first: 3, sort: [price_DESC]) { edges { cursor node { title } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }",
      key,
    );
    q(`${key} list last`, "{ item(last: 2, sort: [title_ASC]) { nodes { title } pageInfo { hasNextPage hasPreviousPage } } }", key);
    q(`${key} authors`, "{ author(sort: [rank_ASC]) { nodes { name rank mentor { name } } } }", key);
    q(
      `${key} kitchen`,
      "{ kitchen { nodes { id id_field createdAt_field status_field tags _tags _tags_field _nd title size tint sizes say__hi_ legacyPost } } }",
      key,
    );
    q(`${key} settings`, "{ setting { title } settings { nodes { title } } }", key);
    q(
      `${key} naming roots`,
      "{ _2024Reports { nodes { title } } model_blog_post { nodes { title } } mediaModels: mediaList { totalCount } entriesList { totalCount } }",
      key,
    );
    q(`${key} entry`, `{ entry(id: "${f.e.Alpha!.id}") { __typename id ... on Item { title price } } }`, key);
    q(`${key} node`, `{ node(id: "${f.a.ann!.id}") { __typename id ... on Author { name } } }`, key);
    q(`${key} nodes`, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Item { title } ... on Author { name } } }`, key, {
      ids: [f.e.Alpha!.id, f.a.bob!.id, f.e.Zeta!.id, f.a.dee!.id, f.e.Alpha!.id],
    });
    q(`${key} single`, `{ itemById(id: "${f.e.Eta!.id}") { title price _version } }`, key);
    q(`${key} me`, "{ version me { keyId name environment scopes models { namespace typeName can } writes { enabled } } }", key);
    q(`${key} svc`, "{ item(first: 2, sort: [title_ASC]) { nodes { title author { name } } } }", key, undefined, { svc: true });
    const filters: string[] = [
      '{ title: { eq: "Alpha" } }',
      '{ title: { contains: "ta" } }',
      "{ price: { gt: 5, lte: 30 } }",
      "{ onSale: { eq: true } }",
      '{ launch: { gte: "2026-01-01" } }',
      '{ labels: { hasAny: ["red", "blue"] } }',
      "{ scores: { has: 3 } }",
      `{ authors: { has: "${f.a.ann!.id}" } }`,
      '{ author: { name: { startsWith: "A" } } }',
      "{ cover: { exists: true } }",
      '{ _tags: { has: "news" } }',
      "{ status: { eq: published } }",
      '{ or: [{ title: { eq: "Alpha" } }, { price: { gte: 30 } }] }',
      '{ not: { title: { eq: "Alpha" } } }',
      "{ and: [{ price: { gt: 1 } }, { onSale: { eq: true } }] }",
      '{ size: { in: ["s", "l"] } }',
      "{ meta: { exists: true } }",
      "{ extras: { null: true } }",
    ];
    for (const [i, fl] of filters.entries()) q(`${key} filter #${i} ${fl}`, `{ item(filter: ${fl}, sort: [title_ASC]) { nodes { title } } }`, key);
    // The same filters as GET, and through a variable (typed input coerced by graphql-js).
    for (const [i, fl] of filters.entries()) {
      g(`${key} filter #${i} ${fl}`, `{ item(filter: ${fl}, sort: [title_ASC], first: 5) { nodes { title price } totalCount } }`, key);
    }
    for (const [i, fl] of filters.entries()) {
      q(`${key} filter var #${i} ${fl}`, "query($f: ItemFilter) { item(filter: $f, sort: [price_DESC]) { nodes { title } } }", key, {
        f: Function(`return (${fl.replace(/\b(published)\b/, '"published"')})`)(),
      });
    }
    // Nested relation pages: first, after, sort, and under a single entry.
    for (const args of ["(first: 1)", "(first: 2)", "(first: 2, sort: name_DESC)", "(sort: rank_ASC)", "(first: 0)"]) {
      q(
        `${key} nested ${args}`,
        `{ item(sort: [title_ASC]) { nodes { title authors${args} { edges { cursor node { name } } pageInfo { hasNextPage endCursor } } } } }`,
        key,
      );
      q(
        `${key} nested single ${args}`,
        `query($id: ID!) { itemById(id: $id) { authors${args} { nodes { name mentor { name } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`,
        key,
        { id: f.e.Alpha!.id },
      );
    }
    for (const s of [
      "title_DESC",
      "price_ASC",
      "price_DESC, title_ASC",
      "launch_DESC",
      "author__name_ASC",
      "onSale_ASC, size_DESC, title_ASC",
      "createdAt_DESC",
      "odd_name_ASC",
    ]) {
      q(`${key} sort ${s}`, `{ item(sort: [${s}]) { nodes { title } } }`, key);
    }
  }
  // Errors and limits.
  const errors: [string, string][] = [
    ["syntax", "{ item { nodes { title } }"],
    ["unknown field", "{ item { nodes { nope } } }"],
    ["first 201", "{ item(first: 201) { nodes { id } } }"],
    ["first with before", '{ item(first: 1, before: "x") { nodes { id } } }'],
    ["last with after", '{ item(last: 1, after: "x") { nodes { id } } }'],
    ["bad cursor", '{ item(after: "zzz") { nodes { id } } }'],
    ["bad id", '{ itemById(id: "x") { id } }'],
    ["null filter value", "{ item(filter: { title: null }) { nodes { id } } }"],
    ["empty filter op", "{ item(filter: { title: {} }) { nodes { id } } }"],
    ["four sorts", "{ item(sort: [title_ASC, price_ASC, id_ASC, createdAt_ASC]) { nodes { id } } }"],
    ["mutation", "mutation { version }"],
    ["two unnamed ops", "query { version } query { version }"],
    [
      "too deep",
      `{ author { nodes { mentor { mentor { mentor { mentor { mentor { mentor { mentor { mentor { mentor { mentor { mentor { name } } } } } } } } } } } } } }`,
    ],
    ["too costly", "{ item(first: 200) { nodes { authors(first: 1000) { nodes { id } } } } }"],
    ["nested after under list", '{ item { nodes { authors(after: "x") { nodes { id } } } } }'],
    ["eleven roots", `{ ${Array.from({ length: 11 }, (_, i) => `r${i}: item(first: 1) { nodes { id } }`).join(" ")} }`],
  ];
  for (const [name, query] of errors) q(`error ${name}`, query);
  q("error no instance:read sees no models", "{ __schema { queryType { fields { name } } } }", "noRead");
  q("item only key", "{ item(first: 2, sort: [title_ASC]) { nodes { title authors { nodes { id } } } } }", "itemOnly");
  q("error no key", "{ version }", "none");
  // GET: the cacheable form.
  for (const [name, query] of [
    ["list", "{ item(first: 3, sort: [title_ASC]) { nodes { title price } pageInfo { endCursor } } }"],
    ["relations", "{ item(sort: [title_ASC]) { nodes { title author { name } authors(first: 2) { nodes { name } } } } }"],
    ["single", `{ itemById(id: "${f.e.Alpha!.id}") { title } }`],
    ["filter", '{ item(filter: { title: { startsWith: "E" } }) { nodes { title } } }'],
    ["error", "{ item(first: 0) { nodes { id } } }"],
    ["me", "{ me { keyId } }"],
  ]) {
    g(`prod ${name}`, query!, "prod");
    g(`dev ${name}`, query!, "dev");
  }
  g("variables", "query($n: Int) { item(first: $n, sort: [title_ASC]) { nodes { title } } }", "prod", { n: 2 });
  return out;
}

/** The key a case sends. */
export function keyOf(f: Fixture, key: Case["key"]): string | null {
  return key === "none" ? null : (f as unknown as Record<string, string>)[key]!;
}
