// `bun scripts/replication-churn.ts [rounds] [projects]`: the "creating a project resets no other
// project's generation" check of replication-scale.ts, repeated many times on a small, fast-moving
// set-up so that a rare reset shows in minutes rather than in one 17-minute run. Shards of 10
// files, files idle after 5 s, at most 20 watched; each round writes to a few projects and creates
// a couple, stays quiet for a random time (0 to 15 s, so the check falls in every phase of the
// supervisor's timers), then creates one project and compares every other project's generation
// 3 s later, naming each file that changed (replication-scale-log.ts). At the end it counts every
// generation Litestream started, by reason (CHURN_LOG=debug passes Litestream's lines on). With
// `0` rounds it measures a burst alone: `CHURN_CONCURRENCY=16 CHURN_SHARD=50 CHURN_IDLE=60
// CHURN_MAX=60 CHURN_LOG=debug bun scripts/replication-churn.ts 0 100`. Not part of the test suite.
import { join } from "node:path";
import { startServer, tempDataDir } from "../test/spawn.ts";
import { signIn } from "./scale-client.ts";
import { describeChanges, generations, ShardRestarts, shardMap } from "./replication-scale-log.ts";

const ROUNDS = Number(process.argv[2] ?? 40);
const N = Number(process.argv[3] ?? 60);
const OWNER = { email: "churn@example.com", password: "churn-password-1" };
const tmp = tempDataDir();
const data = join(tmp.dir, "data");
const env = {
  CAPA_DATA_DIR: data,
  CAPA_REPLICA_URL: `file://${join(tmp.dir, "replica")}`,
  PORT: "0",
  CAPA_DEMO: "0",
  CAPA_ADMIN_EMAIL: OWNER.email,
  CAPA_ADMIN_PASSWORD: OWNER.password,
  CAPA_LOG_LEVEL: process.env.CHURN_LOG ?? "info",
  CAPA_REPLICA_SHARD_SIZE: process.env.CHURN_SHARD ?? "10",
  CAPA_REPLICA_IDLE_SECONDS: process.env.CHURN_IDLE ?? "5",
  CAPA_REPLICA_MAX_WATCHED: process.env.CHURN_MAX ?? "20",
};
const server = startServer(env);
const origin = await server.listening(20_000);
const call = await signIn(origin, OWNER);

const restarts = new ShardRestarts();
let polling = true;
const poller = (async () => {
  while (polling) {
    const h = (await (await fetch(`${origin}/healthz`)).json()) as { litestream: { shards: { name: string; pid: number | null }[] } };
    restarts.note(h.litestream.shards);
    await Bun.sleep(250);
  }
})();

const ids: string[] = [];
let made = 0;
async function create(): Promise<string> {
  const i = made++;
  const p = await call("POST", "/v2/projects", { name: `Site ${i}`, slug: `site-${i}` });
  await call("POST", "/v2/models", { name: "Note", namespace: "note", fields: [{ namespace: "title", type: "string" }] }, p.id);
  for (let k = 0; k < 3; k++) await call("POST", "/v2/model-instances", { model: "note", data: { title: `Note ${k} of ${i}` } }, p.id);
  ids.push(p.id);
  return p.id;
}
async function edit(id: string) {
  await call("POST", "/v2/model-instances", { model: "note", data: { title: `Edit ${Date.now()}` } }, id);
}
const pick = () => ids[Math.floor(Math.random() * ids.length)]!;

// The initial burst: CHURN_CONCURRENCY creators (8) working through N projects, as replication-scale.ts does.
let queued = 0;
const creator = async () => {
  while (queued < N) {
    queued++;
    await create();
  }
};
const burst0 = performance.now();
await Promise.all(Array.from({ length: Number(process.env.CHURN_CONCURRENCY ?? 8) }, creator));
console.log(`${ids.length} projects in ${Math.round((performance.now() - burst0) / 100) / 10} s`);
let changedTotal = 0;
const report: unknown[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  await Promise.all([create(), create(), ...Array.from({ length: 5 }, () => edit(pick()))]);
  const quietMs = Math.floor(Math.random() * 15_000);
  await Bun.sleep(quietMs);
  const before = generations(data, ids);
  const shardsBefore = shardMap(data);
  const from = Date.now() - 10_000;
  await create();
  await Bun.sleep(3_000);
  const after = generations(data, ids);
  const changed = [...before]
    .filter(([id, g]) => g !== null && after.get(id) !== g)
    .map(([id, g]): [string, string | null, string | null] => [id, g, after.get(id) ?? null]);
  changedTotal += changed.length;
  console.log(`round ${round}: quiet ${quietMs} ms, ${changed.length} changed`);
  if (changed.length > 0) {
    const d = describeChanges({ data, changed, before: shardsBefore, after: shardMap(data), restarts, window: [from, Date.now()], output: server.output() });
    console.log(JSON.stringify(d, null, 1));
    report.push({ round, quietMs, d });
  }
}
polling = false;
await poller;
if (process.env.CHURN_OUT) await Bun.write(process.env.CHURN_OUT, server.output());
await server.stop();
// Every generation Litestream started, by its reason (the server passes Litestream's info lines on at debug).
const reasons = new Map<string, number>();
for (const l of server.output().split("\n")) {
  const m = /new generation.*reason=\\"([a-z ]+)|(clearing generation)/.exec(l);
  if (m) reasons.set(m[1] ?? m[2]!, (reasons.get(m[1] ?? m[2]!) ?? 0) + 1);
}
console.log(`${ROUNDS} rounds, ${ids.length} projects, ${changedTotal} other generations changed`, Object.fromEntries(reasons));
tmp.remove();
