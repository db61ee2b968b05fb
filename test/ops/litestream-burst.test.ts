// A burst of project creations with the real binary and a file replica: each new project's file
// is protected (put in the newest shard, whose child restarts at once, and waited for in the
// replica), and the project created just before is written all the while, as a client filling
// its new project does. Litestream's first snapshot of a file leaves its WAL due for a restart;
// made by a write while the shard's child is being replaced (or before the new child's first look
// at the file), that restart goes unseen and the file gets a new generation. Issue 15, item 12:
// creating a project resets no other project's generation, so every file here keeps the one
// generation it started with and Litestream never clears one.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "../../src/infra/clock.ts";
import { createLogger } from "../../src/infra/log.ts";
import { Replication } from "../../src/infra/replication.ts";
import { currentGeneration } from "../../src/infra/replication-protect.ts";
import { CONTROL_FILE, projectFile } from "../../src/storage/files.ts";
import { fileWriter } from "./replica.ts";

const root = mkdtempSync(join(tmpdir(), "capa-burst-"));
const data = join(root, "data");
const replicaDir = join(root, "replica");
const replica = { replicaUrl: `file://${replicaDir}`, replicaEndpoint: null, replicaRegion: null };
const ids = Array.from({ length: 8 }, (_, i) => `b${i}`);
const files = [CONTROL_FILE];
const clock = new ManualClock(1_000_000);
const logs: string[] = [];
const rep = new Replication({ dataDir: data, replica, files: () => files, log: createLogger("debug", (l) => logs.push(l)), clock });

const { write, close } = fileWriter(data);

/** The generations a file's replica holds. */
const replicaGenerations = (rel: string) => readdirSync(join(replicaDir, rel, "generations")).sort();

beforeAll(() => {
  mkdirSync(join(data, "projects"), { recursive: true });
  write(CONTROL_FILE);
  rep.start();
});

afterAll(async () => {
  await rep.stop();
  close();
  rmSync(root, { recursive: true, force: true });
}, 30_000);

test("projects created in a burst, each written as soon as its creation is acknowledged, keep their first generation", async () => {
  // A creation every 300 ms, faster than a child's first look at its files: the newest shard is
  // replaced again and again while files it just took on are written.
  const first = new Map<string, string | null>();
  const creations: Promise<void>[] = [];
  for (const id of ids) {
    const rel = projectFile(id);
    write(rel);
    files.push(rel);
    creations.push(
      (async () => {
        expect(await rep.protect(id, 20_000)).toBe("replicated");
        first.set(rel, currentGeneration(data, rel));
        // The client fills its new project at once: a write every 20 ms for a second and a half.
        for (let k = 0; k < 75; k++) {
          write(rel);
          await Bun.sleep(20);
        }
      })(),
    );
    await Bun.sleep(300);
  }
  await Promise.all(creations);
  await Bun.sleep(2_500);
  for (const id of ids) {
    const rel = projectFile(id);
    expect({ rel, generations: replicaGenerations(rel) }).toEqual({ rel, generations: [first.get(rel)!] });
  }
  expect(logs.filter((l) => l.includes("clearing generation"))).toEqual([]);
}, 120_000);
