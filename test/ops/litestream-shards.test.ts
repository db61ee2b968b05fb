// Replication in shards, in process with the real Litestream binary and a file replica, the
// supervisor driven tick by tick on the harness clock: projects fill shards of two; creating a
// project restarts only its own shard and resets no generation; a killed shard is restarted after
// its backoff and a file written and closed meanwhile keeps its generation (Capa never
// checkpoints behind Litestream's back); idle files settle and their shards stop, a write wakes a
// file into a shard in the same generation; restore brings every project back with its rows.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { FIRST_LOOK_MS } from "../../src/infra/replication-shard.ts";
import { currentGeneration, listedControlSegmentSince, listedSnapshotReady } from "../../src/infra/replication-protect.ts";
import { restoreAll } from "../../src/infra/restore.ts";
import { projectFile } from "../../src/storage/files.ts";
import { waitFor } from "./replica.ts";

const root = mkdtempSync(join(tmpdir(), "capa-shards-"));
const data = join(root, "data");
const replicaUrl = `file://${join(root, "replica")}`;
let h: Harness;
let token: string;
/** Project ids in creation order, and the entries written to each. */
const projects: string[] = [];
const entries = new Map<string, number>();

const rep = () => h.capa.replication;
const gen = (id: string) => currentGeneration(data, projectFile(id));
const shards = () =>
  rep()
    .status()
    .shards.map((s) => [s.name, s.state, s.databases]);
const pids = () =>
  Object.fromEntries(
    rep()
      .status()
      .shards.map((s) => [s.name, s.pid]),
  );
async function tick(ms: number) {
  h.clock.advance(ms);
  await rep().tick(h.clock.now());
}
async function write(id: string, n: number) {
  for (let i = 0; i < n; i++) {
    const r = await h.json("POST", "/v2/model-instances", { token, headers: { "x-svc-project": id }, body: { model: "note", data: { title: `n${i}` } } });
    expect(r.status).toBe(201);
  }
  entries.set(id, (entries.get(id) ?? 0) + n);
}
async function create(name: string) {
  const r = await h.json("POST", "/v2/projects", { token, body: { name } });
  expect(r.status).toBe(201);
  expect(r.body.backup).toBe("replicated");
  projects.push(r.body.id);
  const m = await h.json("POST", "/v2/models", {
    token,
    headers: { "x-svc-project": r.body.id },
    body: { name: "Note", namespace: "note", fields: [{ namespace: "title", type: "string" }] },
  });
  expect(m.status).toBe(201);
  await write(r.body.id, 2);
  return r.body.id as string;
}
/** Every write so far is in the replica (the lag meter's word), twice a sync apart. */
const caughtUp = () =>
  waitFor("the replica to catch up", 15_000, async () => {
    if (rep().status().lagSeconds !== 0) return undefined;
    await Bun.sleep(1100);
    return rep().status().lagSeconds === 0 ? true : undefined;
  });

beforeAll(async () => {
  h = startApp({ replicaUrl, replicaShardSize: 2, replicaIdleMs: 30_000 }, data);
  const owner = await withOwner(h);
  token = owner.token;
  projects.push(owner.project.id);
  const model = { name: "Note", namespace: "note", fields: [{ namespace: "title", type: "string" }] };
  expect((await h.json("POST", "/v2/models", { token, headers: { "x-svc-project": owner.project.id }, body: model })).status).toBe(201);
  await write(owner.project.id, 1);
  rep().start();
}, 30_000);

afterAll(async () => {
  await rep().stop();
  h.close();
  rmSync(root, { recursive: true, force: true });
}, 30_000);

describe("replication in shards", () => {
  test("projects fill shards of two; a new project restarts only its own shard and resets no generation", async () => {
    for (const name of ["One", "Two", "Three", "Four"]) await create(name);
    expect(shards()).toEqual([
      ["control", "running", 1],
      ["projects-1", "running", 2],
      ["projects-2", "running", 2],
      ["projects-3", "running", 1],
    ]);
    await caughtUp();
    const before = pids();
    const gens = projects.map(gen);
    expect(gens.every((g) => typeof g === "string" && g.length === 16)).toBe(true);

    await create("Five");
    expect(shards().at(-1)).toEqual(["projects-3", "running", 2]);
    const after = pids();
    expect(after.control).toBe(before.control!);
    expect(after["projects-1"]).toBe(before["projects-1"]!);
    expect(after["projects-2"]).toBe(before["projects-2"]!);
    expect(after["projects-3"]).not.toBe(before["projects-3"]!);
    await caughtUp();
    expect(projects.slice(0, 5).map(gen)).toEqual(gens);
    expect(readFileSync(join(data, "litestream", "projects-3.yml"), "utf8")).toContain(projectFile(projects[5]!));
    // The checks protect uses for S3 replicas ask Litestream itself; they work on any replica.
    const newest = projectFile(projects[5]!);
    expect(await listedSnapshotReady(data, join(data, "litestream", "projects-3.yml"), newest)).toBe(true);
    expect(await listedSnapshotReady(data, join(data, "litestream", "projects-3.yml"), projectFile("00000000-0000-0000-0000-000000000000"))).toBe(false);
    const control = join(data, "litestream", "control.yml");
    expect(await listedControlSegmentSince(data, control, Date.now() - 60_000)).toBe(true);
    expect(await listedControlSegmentSince(data, control, Date.now() + 60_000)).toBe(false);
  }, 60_000);

  test("a killed shard is restarted after its backoff; a file written and closed meanwhile keeps its generation", async () => {
    const id = projects[0]!;
    await caughtUp();
    // Monitor passes, as the server runs every second: a file quiet for 5 s has its due WAL
    // restart brought forward while Litestream watches.
    await tick(6_000);
    await tick(6_000);
    await caughtUp();
    const g = gen(id);
    const pid = pids()["projects-1"]!;
    process.kill(pid, "SIGKILL");
    await waitFor("the shard to be seen down", 5_000, async () => (rep().status().shards[1]!.state === "down" ? true : undefined));
    const health = await h.json("GET", "/healthz");
    expect(health.body.status).toBe("degraded");
    expect(health.body.litestream).toMatchObject({ state: "down", lastError: "litestream exited with signal SIGKILL" });
    // Written and closed while nothing watches it: the last connection's close keeps the WAL.
    await write(id, 3);
    h.capa.services.projects.close(id);
    expect(existsSync(join(data, `${projectFile(id)}-wal`))).toBe(true);

    await tick(1_000);
    const s = rep().status();
    expect(s.state).toBe("running");
    expect(s.shards[1]).toMatchObject({ name: "projects-1", state: "running", restarts: 1 });
    expect(s.shards[1]!.pid).not.toBe(pid);
    await caughtUp();
    expect(gen(id)).toBe(g);
  }, 60_000);

  test("idle files settle and their shards stop; a write wakes a file into a shard, same generation", async () => {
    const gens = projects.map(gen);
    // A file leaves only a child that has had its first look at it (wall-clock time, not the
    // manual clock's): the child restarted by the test before may be younger.
    await Bun.sleep(FIRST_LOOK_MS);
    // The first pass sees the last writes; the second finds every file unchanged for 30 s.
    await tick(31_000);
    await tick(31_000);
    await tick(31_000);
    expect(shards()).toEqual([["control", "running", 1]]);
    expect(rep().status()).toMatchObject({ databases: 7, watched: 1, settled: 6 });
    const state = JSON.parse(readFileSync(join(data, "litestream", "settled.json"), "utf8"));
    expect(Object.keys(state.settled).sort()).toEqual(projects.map(projectFile).sort());

    const id = projects[2]!;
    await write(id, 2);
    await tick(1_000);
    expect(rep().status()).toMatchObject({ watched: 2, settled: 5 });
    expect(shards()).toEqual([
      ["control", "running", 1],
      ["projects-4", "running", 1],
    ]);
    await caughtUp();
    expect(projects.map(gen)).toEqual(gens);
  }, 60_000);

  test("restore brings every project back with its rows", async () => {
    await rep().stop();
    const out = join(root, "restored");
    const r = await restoreAll({ replicaUrl, replicaEndpoint: null, replicaRegion: null }, out);
    expect(r.missing).toEqual([]);
    expect(r.files).toEqual(["control.sqlite", ...projects.map(projectFile)].sort());
    for (const id of projects) {
      const db = new Database(join(out, projectFile(id)), { readonly: true });
      try {
        expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM entries").get()!.n).toBe(entries.get(id)!);
      } finally {
        db.close();
      }
    }
  }, 60_000);
});

test("without a replica the creation answer says backup off", async () => {
  const plain = startApp();
  try {
    const owner = await withOwner(plain);
    const r = await plain.json("POST", "/v2/projects", { token: owner.token, body: { name: "Plain" } });
    expect(r.status).toBe(201);
    expect(r.body.backup).toBe("off");
  } finally {
    plain.close();
  }
});
