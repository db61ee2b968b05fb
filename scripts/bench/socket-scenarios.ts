// `bench socket`: the scenarios, and the plan file that carries each one's request and the
// statements Capa ran for it (logged by socket-prepare.ts) to the raw server and the driver.
import type { Seeded } from "./seed.ts";

/** One statement as Capa ran it: SQL, parameters and whether all rows or the first were read. */
export interface Statement {
  sql: string;
  params: unknown[];
  mode: "all" | "get";
}

/** A scenario for one key: its request and what Capa ran for it. */
export interface PlannedScenario {
  name: string;
  about: string;
  env: "dev" | "prod";
  key: string;
  projectId: string;
  method: "GET" | "POST";
  path: string;
  body: string | null;
  statements: Statement[];
  /** The size of Capa's answer. */
  bytes: number;
}

/** What socket-prepare.ts hands over. */
export interface Plan {
  dir: string;
  projects: { small: Seeded; big: Seeded };
  scenarios: PlannedScenario[];
}

interface Scenario {
  name: string;
  about: string;
  /** small: 10,000 posts with 100 authors; big: 100,000 posts with 1,000 authors. */
  project: "small" | "big";
  /** For a paging scenario: the sort and the page number reached by cursor. */
  sort?: string;
  page?: number;
  request(x: { itemId: string; cursor: string | null }): { method: "GET" | "POST"; path: string; body?: string };
}

/** The GraphQL list with one relation, and the REST read it translates to (same entries, same order). */
export const GRAPHQL_LIST = "{ post(first: 25) { nodes { id title price author { id name } } } }";
const REST_RELATION = "/api/entries/post?limit=25&select=title,price,author(name)";
const where = encodeURIComponent(JSON.stringify({ price: { gte: 500 } }));
const page = (sort: string, n: number): Scenario => ({
  name: `page-${n}`,
  about: `page ${n.toLocaleString("en")} by cursor of 25, sort ${sort}, 100,000 posts`,
  project: "big",
  sort,
  page: n,
  request: ({ cursor }) => ({ method: "GET", path: `/api/entries/post?limit=25&sort=${sort}${cursor ? `&after=${cursor}` : ""}` }),
});

/**
 * Every scenario, each run with a development key (uncached) and a production key (cached). The
 * order is the order of a round: reads compared with each other (the relation read and the
 * GraphQL queries it translates to; pages 1, 400 and 4,000) follow each other.
 */
export const SCENARIOS: Scenario[] = [
  {
    name: "list-date",
    about: "25 posts sorted by a date (-day)",
    project: "small",
    request: () => ({ method: "GET", path: "/api/entries/post?limit=25&sort=-day" }),
  },
  {
    name: "filter-number",
    about: "25 posts where price >= 500, sorted by -price",
    project: "small",
    request: () => ({ method: "GET", path: `/api/entries/post?limit=25&where=${where}&sort=-price` }),
  },
  { name: "item", about: "one post by id", project: "small", request: ({ itemId }) => ({ method: "GET", path: `/api/entries/post/${itemId}` }) },
  {
    name: "relation-id",
    about: "the same 25 posts with the author as its id (select=title,price,author)",
    project: "small",
    request: () => ({ method: "GET", path: "/api/entries/post?limit=25&select=title,price,author" }),
  },
  {
    name: "relation",
    about: "25 posts with the author expanded (select=title,price,author(name))",
    project: "small",
    request: () => ({ method: "GET", path: REST_RELATION }),
  },
  {
    name: "graphql-post",
    about: "GraphQL POST: 25 posts with the author (the relation read above)",
    project: "small",
    request: () => ({ method: "POST", path: "/api/graphql", body: JSON.stringify({ query: GRAPHQL_LIST }) }),
  },
  {
    name: "graphql-get",
    about: "GraphQL GET: the same query in the URL",
    project: "small",
    request: () => ({ method: "GET", path: `/api/graphql?query=${encodeURIComponent(GRAPHQL_LIST)}` }),
  },
  page("-day", 1),
  page("-day", 400),
  page("-day", 4000),
];
