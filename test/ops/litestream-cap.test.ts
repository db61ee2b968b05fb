// The bound on files Litestream watches at once (CAPA_REPLICA_MAX_WATCHED, replication-quiet.ts),
// with the real binary and a file replica: a supervisor over a control file and six project
// files, shards of two, a bound of four (the control file and three project files), driven tick
// by tick on a manual clock. Files written in the last 5 s all stay watched, over the bound; once
// quiet, the least recently written leave early and settle, so the children watch four files;
// a write wakes a settled file and the oldest quiet one makes room; no generation changes and
// every write is in the replica.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "../../src/infra/clock.ts";
import { configYaml, runLitestream, writeConfig } from "../../src/infra/litestream.ts";
import { createLogger } from "../../src/infra/log.ts";
import { Replication } from "../../src/infra/replication.ts";
import { FIRST_LOOK_MS } from "../../src/infra/replication-shard.ts";
import { currentGeneration } from "../../src/infra/replication-protect.ts";
import { CONTROL_FILE, projectFile } from "../../src/storage/files.ts";
import { fileWriter, waitFor } from "./replica.ts";

const root = mkdtempSync(join(tmpdir(), "capa-cap-"));
const data = join(root, "data");
const replica = { replicaUrl: `file://${join(root, "replica")}`, replicaEndpoint: null, replicaRegion: null };
const ids = ["p0", "p1", "p2", "p3", "p4", "p5"];
const rels = ids.map(projectFile);
const files = [CONTROL_FILE, ...rels];
const clock = new ManualClock(1_000_000);
const logs: string[] = [];
const rep = new Replication({
  dataDir: data,
  replica,
  files: () => files,
  log: createLogger("warn", (l) => logs.push(l)),
  clock,
  shardSize: 2,
  idleMs: 60_000,
  maxWatched: 4,
});

const { write, rows, close } = fileWriter(data);
const p = (...ns: number[]) => ns.map((n) => rels[n]!);
const shards = () =>
  rep
    .status()
    .shards.map((s) => [s.name, s.databases])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
const settledFiles = () => Object.keys(JSON.parse(readFileSync(join(data, "litestream", "settled.json"), "utf8")).settled).sort();
const gens = () => files.map((rel) => currentGeneration(data, rel));
async function tick(ms: number) {
  clock.advance(ms);
  await rep.tick(clock.now());
}
/** Every write so far is in the replica (the lag meter's word), twice a sync apart. */
const caughtUp = () =>
  waitFor("the replica to catch up", 15_000, async () => {
    if (rep.status().lagSeconds !== 0) return undefined;
    await Bun.sleep(1100);
    return rep.status().lagSeconds === 0 ? true : undefined;
  });

beforeAll(() => {
  mkdirSync(join(data, "projects"), { recursive: true });
  for (const rel of files) write(rel);
  rep.start();
});

afterAll(async () => {
  await rep.stop();
  close();
  rmSync(root, { recursive: true, force: true });
}, 30_000);

test("over CAPA_REPLICA_MAX_WATCHED, the least recently written quiet files leave early; written ones stay watched", async () => {
  expect(rep.status()).toMatchObject({ watched: 7, maxWatched: 4, settled: 0 });
  await caughtUp();
  // Written in order half a second apart: p0 is the least recently written. None is quiet yet
  // (5 s), so all stay watched, over the bound.
  for (const rel of rels) {
    write(rel);
    await tick(500);
  }
  expect(rep.status()).toMatchObject({ watched: 7, maxWatched: 4, settled: 0 });
  await caughtUp();
  const before = gens();
  expect(before.every((g) => typeof g === "string" && g.length === 16)).toBe(true);

  // All quiet now: the three least recently written leave, their shards restart without them.
  await tick(5_000);
  expect(shards()).toEqual([
    ["control", 1],
    ["projects-2", 1],
    ["projects-3", 2],
  ]);
  expect(rep.status()).toMatchObject({ watched: 4, settled: 3 });
  expect(settledFiles()).toEqual(p(0, 1, 2));
  // A restarted child watches its files from its first look at them (wall-clock time, not the
  // manual clock's); until then none of them may leave.
  await Bun.sleep(FIRST_LOOK_MS);

  // A write wakes p0; the oldest quiet file (p3) makes room. p0 joins p3's shard, whose restart
  // waits for the 2 s between restarts: meanwhile its child still watches p3, and the bound holds.
  write(rels[0]!);
  await tick(1_000);
  expect(rep.status()).toMatchObject({ watched: 4 });
  await tick(1_000);
  expect(shards()).toEqual([
    ["control", 1],
    ["projects-2", 1],
    ["projects-3", 2],
  ]);
  expect(rep.status()).toMatchObject({ watched: 4, settled: 3 });
  expect(settledFiles()).toEqual(p(1, 2, 3));
  expect(readFileSync(join(data, "litestream", "projects-2.yml"), "utf8")).toContain(rels[0]!);

  // Every file written at once: none may leave, so the bound is exceeded, and status says so.
  for (const rel of rels) write(rel);
  await tick(1_000);
  await tick(1_000);
  expect(shards()).toEqual([
    ["control", 1],
    ["projects-2", 2],
    ["projects-3", 2],
    ["projects-4", 2],
  ]);
  expect(rep.status()).toMatchObject({ watched: 7, maxWatched: 4, settled: 0 });

  // Quiet again: back to four (ties go by path, so p0, p1 and p2 leave).
  await caughtUp();
  await tick(5_000);
  expect(shards()).toEqual([
    ["control", 1],
    ["projects-3", 2],
    ["projects-4", 1],
  ]);
  expect(rep.status()).toMatchObject({ watched: 4, settled: 3 });
  expect(settledFiles()).toEqual(p(0, 1, 2));
  await caughtUp();
  expect(gens()).toEqual(before);
  // Warned once per spell over the bound, not every pass.
  expect(logs.filter((l) => l.includes("CAPA_REPLICA_MAX_WATCHED")).length).toBe(2);
}, 90_000);

test("every write is in the replica", async () => {
  await rep.stop();
  const config = join(root, "restore.yml");
  writeConfig(config, configYaml(replica, data, files));
  for (const rel of files) {
    const out = join(root, "restored", rel);
    const r = await runLitestream(["restore", "-config", config, "-no-expand-env", "-o", out, join(data, rel)]);
    expect(r.code).toBe(0);
    const db = new Database(out, { readonly: true });
    try {
      expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM t").get()!.n).toBe(rows.get(rel)!);
    } finally {
      db.close();
    }
  }
}, 60_000);
