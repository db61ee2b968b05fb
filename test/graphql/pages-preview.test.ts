// GraphQL records Svc-Page / Svc-Path / Svc-Schema as entries reads do (the REST reads its root
// fields became), and honours ?preview= tokens on a production key (interface.md, Read API;
// decisions.md section 4).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type Harness } from "../harness.ts";
import { seed, type Seed } from "../api/seed.ts";

let h: Harness;
let s: Seed;
beforeAll(async () => {
  h = startApp();
  s = await seed(h);
});
afterAll(() => h.close());

const post = (key: string, body: unknown, headers: Record<string, string> = {}, search = "") =>
  h.json("POST", `/api/graphql${search}`, { body, headers: { "x-api-key": key, ...headers } });

describe("Svc-Page on GraphQL", () => {
  test("a POST records the page, path, schema, models, entries and the REST reads of its root fields", async () => {
    const query = `{ item(first: 2, sort: title_ASC) { nodes { id title author { id } } } }`;
    const r = await post(s.prod, { query, extensions: { svc: true } }, { "svc-page": "/gql/[slug]", "svc-path": "/gql/one", "svc-schema": "s-1" });
    expect(r.status).toBe(200);
    const nodes = r.body.data.item.nodes as { id: string; author: { id: string } | null }[];
    const rest = (r.body.extensions.svc.rest as { url: string }[]).map((x) => x.url);
    const page = await h.json("GET", `/api/pages/${encodeURIComponent("/gql/[slug]")}`, { headers: { "x-api-key": s.prod } });
    expect(page.status).toBe(200);
    expect(page.body.data.paths).toEqual(["/gql/one"]);
    expect(page.body.data.schemas).toEqual(["s-1"]);
    expect([...page.body.data.models].sort()).toEqual(["author", "item"]);
    const authors = nodes.flatMap((n) => (n.author ? [n.author.id] : []));
    expect(authors.length).toBeGreaterThan(0);
    expect([...page.body.data.entries].sort()).toEqual([...nodes.map((n) => n.id), ...authors].sort());
    expect(page.body.data.queries).toEqual(rest);
  });

  test("a cached production GET records the page too; without Svc-Page nothing is recorded", async () => {
    const url = `/api/graphql?query=${encodeURIComponent("{ item(first: 1, sort: title_ASC) { nodes { title } } }")}`;
    const first = await h.json("GET", url, { headers: { "x-api-key": s.prod } });
    expect(first.status).toBe(200);
    const again = await h.json("GET", url, { headers: { "x-api-key": s.prod, "svc-page": "cached-page" } });
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    const page = await h.json("GET", "/api/pages/cached-page", { headers: { "x-api-key": s.prod } });
    expect(page.body.data).toMatchObject({ page: "cached-page", models: ["item"], queries: [url] });
    const all = await h.json("GET", "/api/pages", { headers: { "x-api-key": s.prod } });
    expect(all.body.data.map((p: { page: string }) => p.page)).toEqual(["/gql/[slug]", "cached-page"]);
  });
});

describe("?preview= on GraphQL", () => {
  const query = (id: string) => ({ query: `{ itemById(id: "${id}") { title } }` });

  test("a production key sees the drafts a token covers, never cached", async () => {
    const draft = s.e.Zeta.id;
    expect((await post(s.prod, query(draft))).body.data).toEqual({ itemById: null });
    const t = (await h.json("POST", "/v2/preview-tokens", { token: s.token, body: { entryIds: [draft] } })).body.token as string;
    const r = await post(s.prod, query(draft), {}, `?preview=${t}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ itemById: { title: "Zeta" } });
    expect(r.headers.get("cache-control")).toBe("no-store");
    const get = await h.json("GET", `/api/graphql?preview=${t}&query=${encodeURIComponent(query(draft).query)}`, { headers: { "x-api-key": s.prod } });
    expect(get.body.data).toEqual({ itemById: { title: "Zeta" } });
    expect(get.headers.get("cache-control")).toBe("no-store");
    expect(get.headers.get("etag")).toBeNull();
  });

  test("an unknown or expired token refuses the request: invalid_parameter on preview", async () => {
    const r = await post(s.prod, query(s.e.Zeta.id), {}, "?preview=pvw_nope");
    expect(r.status).toBe(400);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors).toEqual([
      {
        message: "The preview token is not valid or has expired.",
        extensions: {
          code: "invalid_parameter",
          type: "invalid_request",
          param: "preview",
          hint: "Mint a token with POST /v2/preview-tokens.",
          docs: "http://capa.test/docs/errors/invalid_parameter",
        },
      },
    ]);
  });
});
