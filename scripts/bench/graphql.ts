// `bench graphql`: a 25-entry list query with one relation against the equivalent REST read in
// the same run (throughput over a socket), statements per relation level (counted by a wrapper
// around the project file's `query`, in process), and schema build and cached fetch times for a
// project of 50 models.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateSchema } from "graphql";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { createProject } from "../../src/domain/projects/service.ts";
import { createModel } from "../../src/domain/models/service.ts";
import { allModels } from "../../src/domain/models/catalog.ts";
import { mintKey } from "../../src/domain/keys/mint.ts";
import { buildSchema } from "../../src/graphql/schema.ts";
import { SchemaCache } from "../../src/graphql/schema-cache.ts";
import { graphqlRoutes } from "../../src/http/api/graphql.ts";
import { runReadJob } from "../../src/domain/reads/job.ts";
import type { Figure } from "./entries.ts";
import { load, median, spawnServer, type LoadResult } from "./load.ts";

const fmt = (n: number, d = 2) => n.toFixed(d);

/** GraphQL POSTs through the shared load generator. */
function loadPost(url: string, headers: Record<string, string>, body: string, connections: number, seconds: number): Promise<LoadResult> {
  return load(url, { ...headers, "content-type": "application/json" }, connections, seconds, { method: "POST", body });
}

const LIST = "{ post(first: 25) { nodes { id title price author { id name } } } }";
const REST = "/api/entries/post?limit=25&select=title,price,author(name)";

/** GraphQL list of 25 with one relation vs the REST read it becomes, uncached (development key), over a socket. */
async function throughput(): Promise<Figure[]> {
  const app = await spawnServer(join(import.meta.dir, "serve-app.ts"), ["2000", "100"]);
  const base = app.info.url as string;
  const headers = { "x-api-key": app.info.devKey as string, "accept-encoding": "identity" };
  try {
    // Both answer the same entries (the GraphQL one also carries extensions).
    const g = (await (
      await fetch(`${base}/api/graphql`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ query: LIST }) })
    ).json()) as { data: { post: { nodes: { id: string }[] } } };
    const r = (await (await fetch(`${base}${REST}`, { headers })).json()) as { data: { id: string }[] };
    if (JSON.stringify(g.data.post.nodes.map((x) => x.id)) !== JSON.stringify(r.data.map((x) => x.id)))
      throw new Error("GraphQL and REST answered different entries");
    // Three loops: the in-flight limit of one client of a key, which both surfaces share. The
    // two alternate in rounds, so drift in the machine's load affects both alike.
    const body = JSON.stringify({ query: LIST });
    await load(`${base}${REST}`, headers, 3, 1);
    await loadPost(`${base}/api/graphql`, headers, body, 3, 1);
    const rests: LoadResult[] = [];
    const gqls: LoadResult[] = [];
    for (let round = 0; round < 6; round++) {
      rests.push(await load(`${base}${REST}`, headers, 3, 2));
      gqls.push(await loadPost(`${base}/api/graphql`, headers, body, 3, 2));
    }
    for (const [n, xs] of [
      ["REST", rests],
      ["GraphQL", gqls],
    ] as const) {
      for (const x of xs) if (Object.keys(x.statuses).some((s) => s !== "200")) throw new Error(`${n} answered ${JSON.stringify(x.statuses)}`);
    }
    const rest = { rps: median(rests.map((x) => x.rps)), p50: median(rests.map((x) => x.p50)) };
    const gql = { rps: median(gqls.map((x) => x.rps)), p50: median(gqls.map((x) => x.p50)) };
    // The ratio of each round's pair, run back to back, then the median of those.
    const ratio = median(gqls.map((g, i) => g.rps / rests[i]!.rps));
    return [
      {
        figure:
          "graphql: 25 entries + 1 relation, uncached (development key), req/s (medians of 6 alternating 2 s rounds), GraphQL POST vs REST GET (target ratio >= 0.7)",
        value: `${fmt(gql.rps, 0)} (p50 ${fmt(gql.p50)} ms)`,
        baseline: `${fmt(rest.rps, 0)} (p50 ${fmt(rest.p50)} ms)`,
        ratio: fmt(ratio),
      },
    ];
  } finally {
    app.proc.kill();
  }
}

/** A project for statement counts: `a` -> `b` -> `c` -> `d`, each entry of `a` with a single relation and a list of 3. */
function chainProject(capa: ReturnType<typeof createApp>, n: number) {
  const s = capa.services;
  const user = createUser(s, { email: `gql-bench-${n}-${Date.now()}@example.com`, password: "bench-password" });
  const project = createProject(s, { name: `Chain ${n}`, ownerId: user.id });
  const h = s.projects.get(project.id);
  const d = createModel(s, h, { name: "D", namespace: "d", fields: [{ namespace: "name", type: "string" }] });
  const c = createModel(s, h, {
    name: "C",
    namespace: "c",
    fields: [
      { namespace: "name", type: "string" },
      { namespace: "d", type: "relation", relation: "d" },
    ],
  });
  const b = createModel(s, h, {
    name: "B",
    namespace: "b",
    fields: [
      { namespace: "name", type: "string" },
      { namespace: "c", type: "relation", relation: "c" },
    ],
  });
  const a = createModel(s, h, {
    name: "A",
    namespace: "a",
    fields: [
      { namespace: "name", type: "string" },
      { namespace: "b", type: "relation", relation: "b" },
      { namespace: "bs", type: "array", arrayType: "relation", relation: "b" },
    ],
  });
  const fid = (m: typeof a, ns: string) => m.fields.find((x) => x.namespace === ns)!.id;
  const insert =
    h.sqlite.prepare(`INSERT INTO entries (id, model_id, created_at, updated_at, draft_version_id, draft_version, draft_data, draft_tags, draft_keys)
    VALUES (?, ?, ?, ?, ?, 1, ?, '[]', '{}')`);
  let t = Date.UTC(2025, 0, 1);
  const add = (modelId: string, data: Record<string, unknown>) => {
    const id = Bun.randomUUIDv7();
    t += 1000;
    const at = new Date(t).toISOString();
    insert.run(id, modelId, at, at, Bun.randomUUIDv7(), JSON.stringify(data));
    return id;
  };
  h.sqlite.transaction(() => {
    for (let i = 0; i < n; i++) {
      const dd = add(d.id, { [fid(d, "name")]: `d${i}` });
      const cc = add(c.id, { [fid(c, "name")]: `c${i}`, [fid(c, "d")]: dd });
      const bIds = [0, 1, 2].map((j) => add(b.id, { [fid(b, "name")]: `b${i}.${j}`, [fid(b, "c")]: cc }));
      add(a.id, { [fid(a, "name")]: `a${i}`, [fid(a, "b")]: bIds[0], [fid(a, "bs")]: bIds });
    }
  })();
  const key = mintKey(s, project.id, { kind: "cli" }, { preset: "read_only", environment: "development" }).apiKey;
  return { h, key };
}

/** Statements per GraphQL document for 0 to 3 relation levels, for 25 and 100 entries: one per level, never per entry. */
async function statements(): Promise<Figure[]> {
  const capa = createApp(testConfig(mkdtempSync(join(tmpdir(), "capa-bench-"))));
  // The GraphQL routes with reads in process, so the project file's statements can be counted.
  const routes = graphqlRoutes(capa.services, (job) => Promise.resolve(runReadJob(capa.services.projects.get(job.projectId), job)));
  const levels = ["name", "name b { name }", "name b { name c { name } }", "name b { name c { name d { name } } } bs(first: 3) { nodes { name c { name } } }"];
  const counts: Record<number, number[]> = {};
  for (const n of [25, 100]) {
    const { h, key } = chainProject(capa, n);
    let count = 0;
    const query = h.sqlite.query.bind(h.sqlite);
    h.sqlite.query = ((sql: string) => {
      count++;
      return query(sql);
    }) as typeof h.sqlite.query;
    counts[n] = [];
    for (const sel of levels) {
      const body = JSON.stringify({ query: `{ a(first: ${n}) { nodes { ${sel} } } }` });
      const run = () =>
        routes.handle(new Request("http://localhost/api/graphql", { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body }));
      const warm = await run();
      if (warm.status !== 200) throw new Error(`${sel}: ${warm.status} ${await warm.text()}`);
      count = 0;
      await (await run()).arrayBuffer();
      counts[n].push(count);
    }
    h.sqlite.query = query;
  }
  capa.close();
  return levels.map((_, i) => ({
    figure: `graphql: statements for ${i} relation level${i === 1 ? "" : "s"}${i === 3 ? " (plus a list relation at level 1)" : ""}, 100 entries (target: one per level)`,
    value: String(counts[100]![i]),
    baseline: `${counts[25]![i]} (25 entries)`,
    ratio: fmt(counts[100]![i]! / counts[25]![i]!),
  }));
}

/** Schema build for 50 models (10 fields each, relations among them) and the cached fetch. */
async function schemaTimes(): Promise<Figure[]> {
  const capa = createApp(testConfig(mkdtempSync(join(tmpdir(), "capa-bench-"))));
  const s = capa.services;
  const user = createUser(s, { email: `gql-schema-${Date.now()}@example.com`, password: "bench-password" });
  const project = createProject(s, { name: "Fifty", ownerId: user.id });
  const h = s.projects.get(project.id);
  const kinds = [
    { type: "string" },
    { type: "markdown" },
    { type: "number" },
    { type: "true_false" },
    { type: "date" },
    { type: "enum", options: { values: ["a", "b", "c"] } },
    { type: "image" },
    { type: "array", arrayType: "string" },
  ];
  for (let i = 0; i < 50; i++) {
    const fields: Record<string, unknown>[] = kinds.map((k, j) => ({ namespace: `field-${j}`, label: `Field ${j} of model ${i}`, ...k }));
    if (i > 0) {
      fields.push({ namespace: "parent", type: "relation", relation: `model-${i - 1}` });
      fields.push({ namespace: "related", type: "array", arrayType: "relation", relation: `model-${Math.floor(i / 2)}` });
    }
    createModel(s, h, { name: `Model ${i}`, namespace: `model-${i}`, fields });
  }
  const models = allModels(h).list;
  const builds: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    const b = buildSchema(models);
    // A schema is ready when graphql-js has checked it (it does so on the first validation).
    const errors = validateSchema(b.schema);
    builds.push(performance.now() - t);
    if (errors.length) throw new Error(errors.map((e) => e.message).join("; "));
  }
  const cache = new SchemaCache();
  cache.get(h, () => true);
  const gets: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t = performance.now();
    cache.get(h, () => true);
    gets.push(performance.now() - t);
  }
  capa.close();
  return [
    {
      figure: "graphql: schema build for 50 models (build + validation), p50 ms (target < 50)",
      value: fmt(median(builds)),
      baseline: "50.00",
      ratio: fmt(median(builds) / 50),
    },
    {
      figure: "graphql: cached schema fetch, p50 ms (same key, same model-set version)",
      value: fmt(median(gets), 4),
      baseline: fmt(median(builds)),
      ratio: fmt(median(gets) / median(builds), 5),
    },
  ];
}

export async function benchGraphql(): Promise<Figure[]> {
  return [...(await throughput()), ...(await statements()), ...(await schemaTimes())];
}

if (import.meta.main) {
  for (const f of await benchGraphql()) console.log(`| ${f.figure} | ${f.value} | ${f.baseline} | ${f.ratio} |`);
}
