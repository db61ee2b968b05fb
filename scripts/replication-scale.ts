// `bun scripts/replication-scale.ts [projects] [concurrency]`: replication at the scale of an
// agency's VM (issue 15, item 12). Starts the real server with a file replica, creates the projects
// over HTTP (default 1,000, 8 at a time), each with a model and three entries, and measures:
// - Litestream's memory and open files, summed over the shard processes, at the peak (while the
//   projects are being created) and once idle files have settled;
// - that creating one more project changes no other project's generation (compared file by file,
//   once while many files are watched and once after they settled), naming each file that changed
//   with its shard, last write and its shard's restarts around the check (replication-scale-log.ts);
// - /healthz, polled every 500 ms throughout: every answer that was not "ok";
// - `capa restore` of everything into an empty directory: every project file present, readable,
//   with its model and its three entries.
// Not part of the test suite (it takes several minutes); its figures are in docs/backup.md.
// Debugging: SCALE_LOG sets the server's log level (warn), SCALE_OUT saves its output to a file,
// SCALE_DEBUG prints its lines matching a pattern, SCALE_SETTLE_MS bounds the wait for settling.
import { Database } from "bun:sqlite";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { runCli, startServer, tempDataDir } from "../test/spawn.ts";
import { signIn } from "./scale-client.ts";
import { describeChanges, generations, ShardRestarts, shardMap } from "./replication-scale-log.ts";

const N = Number(process.argv[2] ?? 1000);
const CONCURRENCY = Number(process.argv[3] ?? 8);
const OWNER = { email: "scale@example.com", password: "scale-password-1" };
const tmp = tempDataDir();
const data = join(tmp.dir, "data");
const replica = join(tmp.dir, "replica");
const env = {
  CAPA_DATA_DIR: data,
  CAPA_REPLICA_URL: `file://${replica}`,
  PORT: "0",
  CAPA_DEMO: "0",
  CAPA_ADMIN_EMAIL: OWNER.email,
  CAPA_ADMIN_PASSWORD: OWNER.password,
  CAPA_LOG_LEVEL: process.env.SCALE_LOG ?? "warn",
};

interface Shard {
  name: string;
  state: string;
  pid: number | null;
  databases: number;
}
interface Health {
  status: string;
  litestream: {
    state: string;
    databases: number;
    watched: number;
    maxWatched: number;
    settled: number;
    lagSeconds: number | null;
    lastError: string | null;
    shards: Shard[];
  };
}

const server = startServer(env);
const origin = await server.listening(20_000);
const call = await signIn(origin, OWNER);
const health = async () => (await (await fetch(`${origin}/healthz`)).json()) as Health;

/** Litestream's memory and open files, summed over the shards' processes. */
function litestreamUse(h: Health) {
  let rss = 0;
  let pss = 0;
  let files = 0;
  const pids = h.litestream.shards.map((s) => s.pid).filter((p): p is number => p !== null);
  for (const pid of pids) {
    try {
      rss += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
      pss += Number(/Pss:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0) / 1024;
      files += readdirSync(`/proc/${pid}/fd`).length;
    } catch {
      // The process was replaced between the health answer and the read.
    }
  }
  return { processes: pids.length, rssMb: Math.round(rss), pssMb: Math.round(pss), openFiles: files, watched: h.litestream.watched };
}

// /healthz throughout, and Litestream's peak use.
const notOk: string[] = [];
let polls = 0;
let peak = { processes: 0, rssMb: 0, pssMb: 0, openFiles: 0, watched: 0 };
/** The most files watched and processes seen in any sample (not necessarily at the RSS peak). */
const most = { watched: 0, processes: 0, maxWatched: 0 };
const restarts = new ShardRestarts();
let polling = true;
const poller = (async () => {
  while (polling) {
    const h = await health();
    polls++;
    restarts.note(h.litestream.shards);
    if (h.status !== "ok" && notOk.length < 20) notOk.push(`${new Date().toISOString()} ${h.status} ${h.litestream.state} ${h.litestream.lastError}`);
    else if (h.status !== "ok") notOk.push("...");
    const use = litestreamUse(h);
    if (use.rssMb > peak.rssMb) peak = use;
    most.watched = Math.max(most.watched, use.watched);
    most.processes = Math.max(most.processes, use.processes);
    most.maxWatched = h.litestream.maxWatched;
    await Bun.sleep(500);
  }
})();

// Create the projects, each with a model and three entries.
const ids: string[] = [];
const backup: Record<string, number> = {};
const createMs: number[] = [];
const t0 = performance.now();
let next = 0;
async function creator() {
  while (next < N) {
    const i = next++;
    const t = performance.now();
    const p = await call("POST", "/v2/projects", { name: `Site ${i}`, slug: `site-${i}` });
    createMs.push(performance.now() - t);
    backup[p.backup] = (backup[p.backup] ?? 0) + 1;
    ids.push(p.id);
    await call("POST", "/v2/models", { name: "Note", namespace: "note", fields: [{ namespace: "title", type: "string" }] }, p.id);
    for (let k = 0; k < 3; k++) await call("POST", "/v2/model-instances", { model: "note", data: { title: `Note ${k} of ${i}` } }, p.id);
    if (ids.length % 100 === 0) console.log(`${ids.length} projects, ${Math.round((performance.now() - t0) / 1000)} s`);
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, creator));
const createdS = Math.round((performance.now() - t0) / 1000);
createMs.sort((a, b) => a - b);
const pct = (q: number) => Math.round(createMs[Math.min(createMs.length - 1, Math.floor(createMs.length * q))]!);

async function oneMore(label: string) {
  const before = generations(data, ids);
  const shardsBefore = shardMap(data);
  const h0 = await health();
  const from = Date.now() - 10_000;
  const t = performance.now();
  const p = await call("POST", "/v2/projects", { name: `Extra ${label}`, slug: `extra-${label}` });
  const ms = Math.round(performance.now() - t);
  // Let every shard run a few syncs, so a reset would show.
  await Bun.sleep(3_000);
  const after = generations(data, ids);
  const h1 = await health();
  const changedIds = [...before]
    .filter(([id, g]) => after.get(id) !== g)
    .map(([id, g]): [string, string | null, string | null] => [id, g, after.get(id) ?? null]);
  const changedFiles = describeChanges({
    data,
    changed: changedIds,
    before: shardsBefore,
    after: shardMap(data),
    restarts,
    window: [from, Date.now()],
    output: server.output(),
  });
  const missing = [...before].filter(([, g]) => g === null).length;
  const restarted = h0.litestream.shards.filter((s) => {
    const now = h1.litestream.shards.find((x) => x.name === s.name);
    return now && now.pid !== s.pid;
  });
  return {
    label,
    backup: p.backup,
    ms,
    changed: changedIds.length,
    changedFiles,
    noGenerationBefore: missing,
    restartedShards: restarted.map((s) => `${s.name} (${s.databases} files)`),
    id: p.id,
  };
}

const busy = litestreamUse(await health());
const extraHot = await oneMore("hot");
ids.push(extraHot.id);
console.log("waiting for idle files to settle (CAPA_REPLICA_IDLE_SECONDS, 60 s) ...");
const settleT0 = performance.now();
let settled: Health;
for (;;) {
  settled = await health();
  if (settled.litestream.watched <= 1 + Math.ceil(CONCURRENCY / 2) || performance.now() - settleT0 > Number(process.env.SCALE_SETTLE_MS ?? 180_000)) break;
  await Bun.sleep(1_000);
}
const settleS = Math.round((performance.now() - settleT0) / 1000);
const idle = litestreamUse(settled);
const extraIdle = await oneMore("idle");
ids.push(extraIdle.id);
// Litestream's "init: cannot determine last wal position, clearing generation", one per log line.
const clearing = server
  .output()
  .split("\n")
  .filter((l) => l.includes("clearing generation")).length;
if (process.env.SCALE_OUT) await Bun.write(process.env.SCALE_OUT, server.output());
if (process.env.SCALE_DEBUG) {
  console.log(
    server
      .output()
      .split("\n")
      .filter((l) => new RegExp(process.env.SCALE_DEBUG ?? "").test(l) && !l.includes('"request"'))
      .slice(0, 400)
      .join("\n"),
  );
}
polling = false;
await poller;
const stopCode = await server.stop();

// Restore everything into an empty directory and read every project back.
const restored = join(tmp.dir, "restored");
const r0 = performance.now();
const r = await runCli(["restore"], { ...env, CAPA_DATA_DIR: restored });
const restoreS = Math.round((performance.now() - r0) / 100) / 10;
let complete = 0;
const problems: string[] = [];
for (const id of ids) {
  const file = join(restored, "projects", `${id}.sqlite`);
  if (!existsSync(file)) {
    problems.push(`${id}: missing`);
    continue;
  }
  const db = new Database(file, { readonly: true });
  try {
    const models = db.query<{ n: number }, []>("SELECT count(*) AS n FROM models").get()!.n;
    const entries = db.query<{ n: number }, []>("SELECT count(*) AS n FROM entries").get()!.n;
    const extra = id === extraHot.id || id === extraIdle.id;
    if (extra ? models === 0 && entries === 0 : models === 1 && entries === 3) complete++;
    else problems.push(`${id}: ${models} models, ${entries} entries`);
  } finally {
    db.close();
  }
}

console.log(
  JSON.stringify(
    {
      projects: N,
      concurrency: CONCURRENCY,
      createSeconds: createdS,
      createMs: { p50: pct(0.5), p95: pct(0.95), max: pct(1) },
      backupAnswers: backup,
      litestreamPeak: peak,
      mostSeen: most,
      litestreamAfterCreation: busy,
      settleSeconds: settleS,
      litestreamSettled: idle,
      oneMoreWhileBusy: extraHot,
      oneMoreWhenSettled: extraIdle,
      clearingGenerationLines: clearing,
      health: { polls, notOk: notOk.length, samples: notOk.slice(0, 10) },
      serverStop: stopCode,
      restore: {
        code: r.code,
        seconds: restoreS,
        stdout: r.stdout.trim(),
        stderr: r.stderr.trim().slice(0, 500),
        complete,
        of: ids.length,
        problems: problems.slice(0, 10),
      },
    },
    null,
    1,
  ),
);
tmp.remove();
