// `bun scripts/bench/one-locale.ts <other checkout>` (issue 28, Performance: "a project with one
// locale: every existing bench figure within 3% of before"). The reads of the existing benches
// (entries, lists, graphql), run by this checkout's code and by another checkout's (the code
// before localization, e.g. an export of main), in ONE process on the same seeded data: each
// tree gets its own app and project file, and the two are measured in alternating rounds of 100
// requests, the order flipping each round, so the machine's drift (other processes on two
// cores) touches both alike. Prints one row per read: this tree's p50, the other's, the ratio of
// the medians of the rounds' p50s, and the spread of the per-round ratios.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { median } from "./load.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 9);
const N = 100;
const POSTS = 100_000;

interface Tree {
  name: string;
  app: { handle(r: Request): Promise<Response> };
  drop: () => void;
  dev: string;
  prod: string;
  token: string;
  projectId: string;
  deep: string;
  listDeep: string;
  itemId: string;
}

/** An app of the checkout at `root` on a fresh data directory, seeded as `bench entries` seeds. */
async function tree(name: string, root: string): Promise<Tree> {
  const { createApp } = await import(join(root, "src/app.ts"));
  const { testConfig } = await import(join(root, "src/config.ts"));
  const { seedBig } = await import(join(root, "scripts/bench/seed.ts"));
  const capa = createApp(testConfig(mkdtempSync(join(tmpdir(), `capa-bench-1l-${name}-`))));
  const seed = seedBig(capa, POSTS, 1000);
  const get = async (path: string, headers: Record<string, string>) => {
    const r = await capa.app.handle(new Request(`http://localhost${path}`, { headers }));
    if (r.status !== 200) throw new Error(`${name} ${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as any;
  };
  const login = await capa.app.handle(
    new Request("http://localhost/v2/user/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: seed.email, password: "bench-password" }),
    }),
  );
  const token = ((await login.json()) as { accessToken: string }).accessToken;
  // The cursors of page 400 of the read list and of the management list sorted by title.
  let deep: string | null = null;
  for (let p = 1; p < 400; p++) deep = (await get(`/api/entries/post?limit=25${deep ? `&after=${deep}` : ""}`, { "x-api-key": seed.devKey })).meta.page.next;
  const auth = { authorization: `Bearer ${token}`, "x-svc-project": seed.projectId };
  let listDeep: string | null = null;
  for (let p = 1; p < 400; p++) listDeep = (await get(`/v2/model-instances?model=post&limit=25&sort=title${listDeep ? `&after=${listDeep}` : ""}`, auth)).next;
  const itemId = (await get("/api/entries/post?limit=1&select=title", { "x-api-key": seed.devKey })).data[0].id;
  // The seed analysed the file before the walks made the title index: analyse again (and touch the
  // schema, so the read pool's connections load the statistics), so both trees plan with full
  // statistics whatever each does with an index made on demand.
  const file = capa.services.projects.get(seed.projectId).sqlite;
  file.exec("ANALYZE; CREATE TABLE bench_touch (x); DROP TABLE bench_touch;");
  return {
    name,
    app: capa.app,
    drop: () => capa.services.renderCache.invalidate(seed.projectId),
    dev: seed.devKey,
    prod: seed.prodKey,
    token,
    projectId: seed.projectId,
    deep: deep!,
    listDeep: listDeep!,
    itemId,
  };
}

interface Read {
  label: string;
  request: (t: Tree) => Request;
  /** Runs before each request, inside the timing (an uncached production read drops the cache). */
  before?: (t: Tree) => void;
}

const enc = encodeURIComponent;
const key = (k: string) => ({ "x-api-key": k });
const READS: Read[] = [
  { label: "entries: page 1, development key", request: (t) => new Request("http://localhost/api/entries/post?limit=25", { headers: key(t.dev) }) },
  { label: "entries: page 400 by cursor", request: (t) => new Request(`http://localhost/api/entries/post?limit=25&after=${t.deep}`, { headers: key(t.dev) }) },
  {
    label: "entries: where price >= 500, sort -price, author expanded",
    request: (t) =>
      new Request(
        `http://localhost/api/entries/post?limit=25&where=${enc(JSON.stringify({ price: { gte: 500 } }))}&sort=-price&select=title,price,author(name)`,
        {
          headers: key(t.dev),
        },
      ),
  },
  {
    label: "entries: where day >= 2025-06-01, sort day, author expanded",
    request: (t) =>
      new Request(
        `http://localhost/api/entries/post?limit=25&where=${enc(JSON.stringify({ day: { gte: "2025-06-01" } }))}&sort=day&select=title,day,author(name)`,
        {
          headers: key(t.dev),
        },
      ),
  },
  {
    label: "entries: one entry by id, author expanded",
    request: (t) => new Request(`http://localhost/api/entries/post/${t.itemId}?select=title,author(name)`, { headers: key(t.dev) }),
  },
  {
    label: "entries: production read, uncached (render cache dropped before each)",
    request: (t) => new Request("http://localhost/api/entries/post?limit=25", { headers: key(t.prod) }),
    before: (t) => t.drop(),
  },
  { label: "entries: production read, cached", request: (t) => new Request("http://localhost/api/entries/post?limit=25", { headers: key(t.prod) }) },
  {
    label: "graphql: 25 entries + 1 relation, development key",
    request: (t) =>
      new Request("http://localhost/api/graphql", {
        method: "POST",
        headers: { ...key(t.dev), "content-type": "application/json" },
        body: JSON.stringify({ query: "{ post(first: 25) { nodes { id title price author { id name } } } }" }),
      }),
  },
  {
    label: "lists: /v2 sort=title page 1 (with the count)",
    request: (t) =>
      new Request("http://localhost/v2/model-instances?model=post&limit=25&sort=title", {
        headers: { authorization: `Bearer ${t.token}`, "x-svc-project": t.projectId },
      }),
  },
  {
    label: "lists: /v2 sort=title page 400 by cursor",
    request: (t) =>
      new Request(`http://localhost/v2/model-instances?model=post&limit=25&sort=title&after=${t.listDeep}`, {
        headers: { authorization: `Bearer ${t.token}`, "x-svc-project": t.projectId },
      }),
  },
];

/** The p50 in ms of N requests of one read on one tree (after 10 untimed). */
async function p50(t: Tree, read: Read): Promise<number> {
  const one = async () => {
    const start = performance.now();
    read.before?.(t);
    const r = await t.app.handle(read.request(t));
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${t.name} ${read.label}: ${r.status}`);
    return performance.now() - start;
  };
  for (let i = 0; i < 10; i++) await one();
  const xs: number[] = [];
  for (let i = 0; i < N; i++) xs.push(await one());
  return median(xs);
}

const other = process.argv[2];
if (!other) {
  process.stderr.write("usage: bun scripts/bench/one-locale.ts <path of the checkout to compare with>\n");
  process.exit(1);
}
const ours = await tree("this", resolve(import.meta.dir, "../.."));
const theirs = await tree("other", resolve(other));
console.log(
  `| read (one-locale project, ${POSTS} posts) | this tree p50 ms | other tree p50 ms | ratio of the medians (${ROUNDS} rounds) | per-round ratios min to max |`,
);
console.log("| --- | --- | --- | --- | --- |");
for (const read of READS) {
  const a: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // The order flips each round, so neither tree always runs second (warmer, or later in a load swing).
    let x: number;
    let y: number;
    if (round % 2 === 0) {
      x = await p50(ours, read);
      y = await p50(theirs, read);
    } else {
      y = await p50(theirs, read);
      x = await p50(ours, read);
    }
    a.push(x);
    b.push(y);
    ratios.push(x / y);
  }
  const ma = median(a);
  const mb = median(b);
  console.log(
    `| ${read.label} | ${ma.toFixed(3)} | ${mb.toFixed(3)} | ${(ma / mb).toFixed(3)} | ${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)} |`,
  );
}
process.exit(0);
