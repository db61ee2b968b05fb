// A due WAL restart is never brought forward in a shard restarting in the same supervisor pass:
// Litestream 0.3's final sync can miss a WAL restart made just before its process stops, and the
// next process then starts a new generation. With the real binary and a file replica, on a manual
// clock: a quiet file with a restart due shares its shard with a new file; the pass that restarts
// the shard leaves the WAL alone (the new process restarts it under its own eyes); the generation
// never changes.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "../../src/infra/clock.ts";
import { createLogger } from "../../src/infra/log.ts";
import { Replication } from "../../src/infra/replication.ts";
import { currentGeneration } from "../../src/infra/replication-protect.ts";
import { restartPending } from "../../src/infra/replication-state.ts";
import { CONTROL_FILE, projectFile } from "../../src/storage/files.ts";
import { closeHandle } from "../../src/storage/pool.ts";
import { applyPragmas } from "../../src/storage/sqlite.ts";
import { waitFor } from "./replica.ts";

const root = mkdtempSync(join(tmpdir(), "capa-window-"));
const data = join(root, "data");
const [a, b] = [projectFile("a"), projectFile("b")];
const files = [CONTROL_FILE, a];
const clock = new ManualClock(1_000_000);
const dbs: Database[] = [];
const rep = new Replication({
  dataDir: data,
  replica: { replicaUrl: `file://${join(root, "replica")}`, replicaEndpoint: null, replicaRegion: null },
  files: () => files,
  log: createLogger("silent"),
  clock,
  shardSize: 2,
});

/** A file opened as Capa opens replicated files, with one row; the connection stays open. */
function create(rel: string): void {
  const db = new Database(join(data, rel));
  applyPragmas(db, { replicated: true });
  db.exec("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1)");
  dbs.push(db);
}
async function tick(ms: number) {
  clock.advance(ms);
  await rep.tick(clock.now());
}
const caughtUp = () =>
  waitFor("the replica to catch up", 15_000, async () => {
    if (rep.status().lagSeconds !== 0) return undefined;
    await Bun.sleep(1100);
    return rep.status().lagSeconds === 0 ? true : undefined;
  });

beforeAll(() => {
  mkdirSync(join(data, "projects"), { recursive: true });
  create(CONTROL_FILE);
  create(a);
  rep.start();
});

afterAll(async () => {
  await rep.stop();
  for (const db of dbs) closeHandle(db);
  rmSync(root, { recursive: true, force: true });
}, 30_000);

test("no WAL restart is brought forward in a shard restarting in the same pass", async () => {
  await caughtUp();
  // Litestream's first snapshot checkpointed every frame: the next write restarts the WAL.
  expect(restartPending(data, a)).toBe(true);
  const gen = currentGeneration(data, a);
  expect(gen).toHaveLength(16);
  // The first pass sees Litestream's own first writes; from then on the file is quiet.
  await tick(1_000);
  await caughtUp();
  expect(restartPending(data, a)).toBe(true);

  // Quiet for 5 s with a restart due, but its shard restarts in this pass for a new file.
  create(b);
  files.push(b);
  await tick(5_000);
  expect(rep.status().shards.map((s) => [s.name, s.databases])).toEqual([
    ["control", 1],
    ["projects-1", 2],
  ]);
  expect(restartPending(data, a)).toBe(true);

  // The new process's own first writes restart the WAL while it watches: same generation.
  await caughtUp();
  expect(restartPending(data, a)).toBe(false);
  expect(currentGeneration(data, a)).toBe(gen);
}, 60_000);
