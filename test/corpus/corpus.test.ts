// The read corpus (issue 25, "no answer changes"): every case of cases.ts, and cursor walks to
// the end of several lists, replayed against a freshly seeded app and compared with the answers
// recorded before the read path was rebuilt (test/corpus/reads.json). `UPDATE_CORPUS=1 bun test
// test/corpus` records them again; do that only when an answer is meant to change, and say so.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Fixture } from "../graphql/fixture.ts";
import { startApp, type Harness } from "../harness.ts";
import { type Case, countingIds, graphqlCases, keyOf, record, type Recorded, restCases, seedCorpus } from "./cases.ts";

const FILE = join(import.meta.dir, "reads.json");

let h: Harness;
let f: Fixture;
const got = new Map<string, { request: string; answer: Recorded }>();

async function send(c: Case): Promise<Recorded> {
  const headers: Record<string, string> = { ...c.headers };
  const key = keyOf(f, c.key);
  if (key !== null) headers["x-api-key"] = key;
  const res = await h.req(c.method, c.path, { headers, body: c.body });
  return record(res);
}

/** Follows a REST list's `meta.page.next` (or a GraphQL connection's endCursor) to the end. */
async function walk(name: string, key: Case["key"], first: (after: string | null) => Case, next: (body: any) => string | null) {
  let after: string | null = null;
  for (let page = 1; page <= 20; page++) {
    const c = { ...first(after), name: `${name} page ${page}`, key };
    const answer = await send(c);
    got.set(c.name, { request: `${c.method} ${c.path}${c.body ? ` ${JSON.stringify(c.body)}` : ""}`, answer });
    after = answer.status === 200 ? next(answer.body) : null;
    if (after === null) return;
  }
}

beforeAll(async () => {
  h = startApp({}, undefined, { ids: countingIds() });
  f = await seedCorpus(h);
  for (const c of [...restCases(f), ...graphqlCases(f)]) {
    if (got.has(c.name)) throw new Error(`two cases named ${c.name}`);
    got.set(c.name, { request: `${c.method} ${c.path}${c.body ? ` ${JSON.stringify(c.body)}` : ""}`, answer: await send(c) });
  }
  const rest =
    (base: string) =>
    (after: string | null): Case => ({
      name: "",
      method: "GET",
      path: `${base}${after ? `&after=${encodeURIComponent(after)}` : ""}`,
      key: "prod",
    });
  const restNext = (b: any) => b?.meta?.page?.next ?? null;
  for (const key of ["prod", "dev"] as const) {
    await walk(`${key} walk title`, key, rest("/api/entries/item?limit=2&sort=title&select=title"), restNext);
    await walk(`${key} walk -price`, key, rest("/api/entries/item?limit=3&sort=-price&select=title,price"), restNext);
    await walk(`${key} walk author.name`, key, rest("/api/entries/item?limit=2&sort=author.name,title&select=title,author(name)"), restNext);
    await walk(
      `${key} walk launch filtered`,
      key,
      rest(`/api/entries/item?limit=1&sort=-launch&where=${encodeURIComponent('{"launch":{"exists":true}}')}`),
      restNext,
    );
    await walk(
      `${key} walk graphql`,
      key,
      (after) => ({
        name: "",
        method: "POST",
        path: "/api/graphql",
        key,
        body: {
          query: "query($a: String) { item(first: 2, after: $a, sort: [title_ASC]) { nodes { title } pageInfo { hasNextPage endCursor } } }",
          variables: { a: after },
        },
      }),
      (b: any) => (b?.data?.item?.pageInfo?.hasNextPage ? b.data.item.pageInfo.endCursor : null),
    );
  }
  if (process.env.UPDATE_CORPUS === "1" || !existsSync(FILE)) writeFileSync(FILE, `${JSON.stringify(Object.fromEntries(got), null, 1)}\n`);
});
afterAll(() => h.close());

describe("the read corpus", () => {
  test("holds at least 500 reads, REST and GraphQL, answers and errors", () => {
    const all = [...got.values()];
    expect(all.length).toBeGreaterThanOrEqual(500);
    expect(all.filter((x) => x.request.startsWith("POST /api/graphql") || x.request.startsWith("GET /api/graphql")).length).toBeGreaterThanOrEqual(150);
    expect(all.filter((x) => x.answer.status >= 400).length).toBeGreaterThanOrEqual(40);
  });

  test("every read answers as recorded: status, caching headers and body", () => {
    const recorded = JSON.parse(readFileSync(FILE, "utf8")) as Record<string, { request: string; answer: Recorded }>;
    const differ: string[] = [];
    for (const [name, now] of got) {
      const was = recorded[name];
      if (!was) differ.push(`${name}: not in the corpus`);
      else if (JSON.stringify(was) !== JSON.stringify(now)) differ.push(name);
    }
    for (const name of Object.keys(recorded)) if (!got.has(name)) differ.push(`${name}: no longer sent`);
    // On a difference, show the first one whole.
    if (differ.length) expect({ name: differ[0], now: got.get(differ[0]!) }).toEqual({ name: differ[0], now: recorded[differ[0]!] as never });
    expect(differ).toEqual([]);
  });
});
