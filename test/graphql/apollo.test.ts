// A real client against the real server on a socket: Apollo Client with the persisted-queries
// link (decisions.md section 5). The first run of a document sends only its hash, gets
// PersistedQueryNotFound, and sends the text once; later runs (from any client) send the hash
// alone by GET, which a production key may cache.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { ApolloClient, HttpLink, InMemoryCache, gql } from "@apollo/client";
import { CombinedGraphQLErrors, ServerError } from "@apollo/client/errors";
import { PersistedQueryLink } from "@apollo/client/link/persisted-queries";
import { startApp, type Harness } from "../harness.ts";
import { fixture, type Fixture } from "./fixture.ts";

let h: Harness;
let f: Fixture;
let server: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  h = startApp();
  f = await fixture(h);
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: h.capa.app.fetch });
});
afterAll(() => {
  server.stop(true);
  h.close();
});

interface Sent {
  method: string;
  hasQuery: boolean;
  status: number;
  cacheControl: string | null;
}

function client(key: string, sent: Sent[]) {
  const logged: typeof fetch = Object.assign(
    async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetch(input, init);
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      const method = init?.method ?? "GET";
      const hasQuery = method === "GET" ? url.searchParams.has("query") : JSON.parse(String(init?.body ?? "{}")).query !== undefined;
      sent.push({ method, hasQuery, status: res.status, cacheControl: res.headers.get("cache-control") });
      return res;
    },
    { preconnect: fetch.preconnect },
  );
  const persisted = new PersistedQueryLink({ sha256: (q: string) => createHash("sha256").update(q).digest("hex"), useGETForHashedQueries: true });
  const http = new HttpLink({ uri: `${server.url.origin}/api/graphql`, headers: { "x-api-key": key }, fetch: logged });
  return new ApolloClient({
    link: persisted.concat(http),
    cache: new InMemoryCache({ possibleTypes: { Entry: ["Item", "Author"], Node: ["Item", "Author"] } }),
  });
}

const ITEMS = gql`
  query Items($first: Int, $after: String) {
    item(first: $first, after: $after, sort: [title_ASC]) {
      edges { cursor node { id title author { id name } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

describe("Apollo Client with persisted queries", () => {
  test("hash first, text once on PersistedQueryNotFound, then the hash alone by GET", async () => {
    const sent: Sent[] = [];
    const a = client(f.prod, sent);
    const r = await a.query({ query: ITEMS, variables: { first: 2 } });
    expect(r.error).toBeUndefined();
    const page = (r.data as any).item;
    expect(page.edges.map((e: any) => e.node.title)).toEqual(["Alpha", "Beta"]);
    expect(page.edges[0].node.author).toEqual({ __typename: "Author", id: f.a.ann.id, name: "Ann" });
    expect(sent).toEqual([
      { method: "GET", hasQuery: false, status: 400, cacheControl: "no-store" },
      { method: "POST", hasQuery: true, status: 200, cacheControl: "no-store" },
    ]);
    // A second client knows nothing of the first: its hash alone is found now.
    const sent2: Sent[] = [];
    const b = client(f.prod, sent2);
    const r2 = await b.query({ query: ITEMS, variables: { first: 2 } });
    expect((r2.data as any).item).toEqual(page);
    expect(sent2).toEqual([{ method: "GET", hasQuery: false, status: 200, cacheControl: "public, max-age=60" }]);
    // The next page by cursor, hash only again.
    const r3 = await b.query({ query: ITEMS, variables: { first: 2, after: page.pageInfo.endCursor } });
    expect((r3.data as any).item.edges.map((e: any) => e.node.title)).toEqual(["Delta", "Epsilon"]);
    expect(sent2.slice(1)).toEqual([{ method: "GET", hasQuery: false, status: 200, cacheControl: "public, max-age=60" }]);
  });

  test("interface fragments on entry and node, with a development key", async () => {
    const sent: Sent[] = [];
    const c = client(f.dev, sent);
    const q = gql`
      query One($id: ID!, $ids: [ID!]!) {
        entry(id: $id) { id ... on Item { title price } }
        nodes(ids: $ids) { id ... on Author { name } }
      }
    `;
    const r = await c.query({ query: q, variables: { id: f.e.Eta!.id, ids: [f.a.dee.id] } });
    expect((r.data as any).entry).toEqual({ __typename: "Item", id: f.e.Eta!.id, title: "Eta v2", price: 1 });
    expect((r.data as any).nodes).toEqual([{ __typename: "Author", id: f.a.dee.id, name: "Dee" }]);
    expect(sent.map((x) => x.cacheControl)).toEqual(["no-store", "no-store"]);
  });

  test("a field error reaches the client with its code", async () => {
    const c = client(f.dev, []);
    const r = await c.query({ query: gql`query Bad { itemById(id: "nope") { id } }`, errorPolicy: "all" });
    expect((r.data as any)?.itemById ?? null).toBeNull();
    const errors = (r.error as any)?.errors ?? [];
    expect(errors[0].extensions.code).toBe("invalid_parameter");
  });

  test("a whole-request refusal (400) reaches Apollo as GraphQL errors: the answer has the GraphQL media type", async () => {
    const plain = (accept?: string) =>
      new ApolloClient({
        link: new HttpLink({ uri: `${server.url.origin}/api/graphql`, headers: { "x-api-key": f.dev, ...(accept ? { accept } : {}) } }),
        cache: new InMemoryCache(),
      });
    const query = gql`query TooMany { item(first: 500) { nodes { id } } }`;
    // Apollo asks for application/graphql-response+json first, so it reads the body of the 400.
    const r = await plain().query({ query, errorPolicy: "all" });
    expect(CombinedGraphQLErrors.is(r.error)).toBe(true);
    const errors = (r.error as CombinedGraphQLErrors).errors;
    expect(errors.map((e) => [e.extensions?.code, e.extensions?.param, e.message])).toEqual([
      ["invalid_limit", "first", "first must be from 1 to 200; got 500."],
    ]);
    // A client that accepts only application/json gets the same 400 and body, which Apollo reports as a server error.
    const old = await plain("application/json").query({ query, errorPolicy: "all" });
    expect(ServerError.is(old.error)).toBe(true);
    expect((old.error as ServerError).statusCode).toBe(400);
  });
});
