// `bench socket`, step 1 (its own process): seeds a data directory (10,000 posts with 100
// authors; 100,000 posts with 1,000 authors for the paging scenarios), then sends every scenario
// once through the real app in process with the read pool replaced by an in-process run on a
// recording connection, so the statements Capa runs for each request (SQL and parameters) are
// logged, never copied by hand. Writes `<dir>/plan.json` and prints `READY <plan file>`.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { ReadPool } from "../../src/infra/read-pool.ts";
import { runReadJob, type ReadJob } from "../../src/domain/reads/job.ts";
import { readList } from "../../src/domain/reads/query.ts";
import { listArgsOf } from "../../src/domain/reads/args.ts";
import { DRAFTS, PUBLISHED } from "../../src/domain/reads/names.ts";
import type { ProjectHandle } from "../../src/storage/pool.ts";
import { seedBig } from "./seed.ts";
import { SCENARIOS, type Plan, type Statement } from "./socket-scenarios.ts";

const dir = process.argv[2]!;
let log: Statement[] | null = null;

/** A project handle whose connection logs every statement run through `query` (SQL, parameters, all or get). */
function recording(h: ProjectHandle): ProjectHandle {
  const bound = (t: object, p: string | symbol) => {
    const v = Reflect.get(t, p, t);
    return typeof v === "function" ? v.bind(t) : v;
  };
  const query = (sql: string) => {
    const st = h.sqlite.query(sql);
    const wrap =
      (mode: "all" | "get") =>
      (...params: unknown[]) => {
        log?.push({ sql, params, mode });
        return mode === "all" ? st.all(...(params as never[])) : st.get(...(params as never[]));
      };
    return { all: wrap("all"), get: wrap("get") };
  };
  const sqlite = new Proxy(h.sqlite, { get: (t, p) => (p === "query" ? query : bound(t, p)) });
  return new Proxy(h, { get: (t, p) => (p === "sqlite" ? sqlite : bound(t, p)) });
}

// Reads run in this thread on the recording connection instead of on a worker.
let capa: ReturnType<typeof createApp>;
ReadPool.prototype.run = function run(job: ReadJob) {
  return Promise.resolve(runReadJob(recording(capa.services.projects.get(job.projectId)), job));
};

// Items too go through ReadPool.run here (they run inline in the server): the SQL is the same.
capa = createApp(testConfig(dir, { rateLimitPerSecond: 1_000_000, rateLimitBurst: 1_000_000, readInline: false }));
const small = seedBig(capa, 10_000, 100);
const big = seedBig(capa, 100_000, 1000);
// seedBig runs ANALYZE, which Capa itself never does. With statistics for the fixed indexes but
// none for the partial expression indexes made later on first use, SQLite prefers such an index
// for the default sort (-createdAt) and sorts the whole model: 17 ms instead of 0.04 ms for 25
// posts. The files are served as Capa leaves them: without statistics.
for (const p of [small, big]) capa.services.projects.get(p.projectId).sqlite.exec("DELETE FROM sqlite_stat1; ANALYZE sqlite_schema");

/** The cursor of page `n` (25 a page) of a sort, walked through the query builder. */
function cursorOf(projectId: string, prod: boolean, sort: string, n: number): string {
  const h = capa.services.projects.get(projectId);
  const reader = { vis: prod ? PUBLISHED : DRAFTS, readable: () => true };
  let after: string | null = null;
  for (let p = 1; p < n; p++) {
    const q = new URLSearchParams({ limit: "25", sort });
    if (after) q.set("after", after);
    after = readList(h, reader, "post", listArgsOf(q)).page.next;
  }
  return after!;
}

// The item scenario reads the 5,000th post of the default order.
const anyPost = String(
  readList(
    capa.services.projects.get(small.projectId),
    { vis: PUBLISHED, readable: () => true },
    "post",
    listArgsOf(new URLSearchParams({ limit: "1", after: cursorOf(small.projectId, true, "-createdAt", 200) })),
  ).data[0]!.id,
);

const plan: Plan = { dir, projects: { small, big }, scenarios: [] };
for (const sc of SCENARIOS) {
  for (const env of ["dev", "prod"] as const) {
    const seed = sc.project === "big" ? big : small;
    const key = env === "dev" ? seed.devKey : seed.prodKey;
    const cursor = sc.page && sc.page > 1 ? cursorOf(seed.projectId, env === "prod", sc.sort!, sc.page) : null;
    const req = sc.request({ itemId: anyPost, cursor });
    const send = () =>
      capa.app.handle(
        new Request(`http://127.0.0.1${req.path}`, {
          method: req.method,
          headers: { "x-api-key": key, "accept-encoding": "identity", ...(req.body ? { "content-type": "application/json" } : {}) },
          body: req.body,
        }),
      );
    // The first read may load models and make indexes; the second is what every later one runs.
    const warm = await send();
    if (warm.status !== 200) throw new Error(`${sc.name} (${env}) answered ${warm.status}: ${await warm.text()}`);
    await warm.arrayBuffer();
    log = [];
    const res = await send();
    const bytes = (await res.arrayBuffer()).byteLength;
    const statements = log;
    log = null;
    // A cached production answer runs no statement; those come from a read after the cache is emptied, below.
    if (statements.length === 0 && env === "dev") throw new Error(`${sc.name} (${env}) ran no statement`);
    plan.scenarios.push({
      name: sc.name,
      about: sc.about,
      env,
      key,
      projectId: seed.projectId,
      method: req.method,
      path: req.path,
      body: req.body ?? null,
      statements,
      bytes,
    });
  }
}
// Production answers are cached after their first read, so their statements come from a
// fresh app state: read each production scenario once more with the cache emptied.
for (const s of plan.scenarios) {
  if (s.statements.length) continue;
  capa.services.changes.content(s.projectId);
  log = [];
  const res = await capa.app.handle(
    new Request(`http://127.0.0.1${s.path}`, {
      method: s.method,
      headers: { "x-api-key": s.key, "accept-encoding": "identity", ...(s.body ? { "content-type": "application/json" } : {}) },
      body: s.body ?? undefined,
    }),
  );
  await res.arrayBuffer();
  if (log.length === 0) throw new Error(`${s.name} (${s.env}) ran no statement`);
  s.statements = log;
  log = null;
}
capa.close();
const file = join(dir, "plan.json");
writeFileSync(file, JSON.stringify(plan));
console.log(`READY ${JSON.stringify({ file })}`);
