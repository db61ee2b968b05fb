// Litestream supervision with the real binary: a child is restarted after it dies while the
// server keeps answering; a new project gets a shard (its own configuration and child) and is in
// the replica before its creation is acknowledged, without restarting the control file's child;
// deleting it stops that shard; a replica that fails shows as "degraded" with a growing lag and
// the creation answer says the project is not protected yet; SIGTERM flushes batched writes and
// stops Litestream only after its last sync, so a restore holds them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runCli, type ServerProc } from "../spawn.ts";
import { alive, call, health, replicaDirs, serveReplicated, waitFor } from "./replica.ts";

describe("a supervised Litestream", () => {
  const dirs = replicaDirs();
  let server: ServerProc;
  let origin: string;
  let token: string;
  let projectId: string;
  beforeAll(async () => {
    ({ server, origin, token } = await serveReplicated({ ...dirs.env, CAPA_LOG_LEVEL: process.env.DEBUG_OPS ? "debug" : "silent" }));
  }, 20_000);
  afterAll(async () => {
    await server?.stop();
    if (process.env.DEBUG_OPS)
      console.log(
        server
          .output()
          .split("\n")
          .filter((l) => !l.includes('"request"'))
          .join("\n"),
        server.errors(),
      );
    dirs.remove();
  }, 20_000);

  test("a new project gets a shard of its own and is in the replica when its creation is acknowledged", async () => {
    const before = await health(origin);
    expect(before.litestream).toMatchObject({ state: "running", databases: 1, restarts: 0, reloads: 0, watched: 1, maxWatched: 60, settled: 0 });
    expect(before.litestream.shards.map((s) => [s.name, s.state, s.databases])).toEqual([["control", "running", 1]]);
    const p = await call(origin, token, "POST", "/v2/projects", { name: "Shop", slug: "shop" });
    expect(p.status).toBe(201);
    expect(p.body.backup).toBe("replicated");
    projectId = p.body.id;
    // Already there, without waiting: a snapshot of the file in its current generation.
    const gen = readFileSync(join(dirs.data, "projects", `.${projectId}.sqlite-litestream`, "generation"), "utf8").trim();
    expect(readdirSync(join(dirs.replica, "projects", `${projectId}.sqlite`, "generations", gen, "snapshots"))).toHaveLength(1);
    const after = await health(origin);
    expect(after.litestream).toMatchObject({ state: "running", databases: 2, watched: 2, reloads: 1 });
    // The control file's child was not restarted; the project's shard started once.
    expect(after.litestream.pid).toBe(before.litestream.pid);
    expect(after.litestream.shards.map((s) => [s.name, s.state, s.databases])).toEqual([
      ["control", "running", 1],
      ["projects-1", "running", 1],
    ]);
    expect(readFileSync(join(dirs.data, "litestream", "projects-1.yml"), "utf8")).toContain(`projects/${projectId}.sqlite`);
    expect(readFileSync(join(dirs.data, "litestream", "control.yml"), "utf8")).not.toContain(projectId);
  }, 20_000);

  test("a killed Litestream is restarted and the server answers throughout", async () => {
    const h0 = await health(origin);
    const pid = h0.litestream.pid!;
    let answered = 0;
    const statuses = new Set<number>();
    let done = false;
    const traffic = (async () => {
      while (!done) {
        const r = await fetch(`${origin}/v2/model-instances?limit=1`, { headers: { authorization: `Bearer ${token}` } });
        statuses.add(r.status);
        answered++;
        await Bun.sleep(10);
      }
    })();
    process.kill(pid, "SIGKILL");
    const down = await waitFor("health to see it down", 3_000, async () => {
      const h = await health(origin);
      return h.litestream.state === "down" ? h : undefined;
    });
    expect(down.status).toBe("degraded");
    expect(down.litestream.lastError).toContain("SIGKILL");
    const back = await waitFor("the restart", 5_000, async () => {
      const h = await health(origin);
      return h.litestream.state === "running" ? h : undefined;
    });
    done = true;
    await traffic;
    expect(back.litestream.restarts).toBe(1);
    expect(back.litestream.pid).not.toBe(pid);
    expect(alive(back.litestream.pid!)).toBe(true);
    expect(answered).toBeGreaterThan(10);
    expect([...statuses]).toEqual([200]);
  }, 20_000);

  test("a deleted project's shard stops and its Litestream state is removed", async () => {
    const meta = join(dirs.data, "projects", `.${projectId}.sqlite-litestream`);
    expect(existsSync(meta)).toBe(true);
    const before = await health(origin);
    expect((await call(origin, token, "DELETE", `/v2/projects/${projectId}`, { slug: "shop" })).status).toBe(204);
    const h = await waitFor("the shard to stop", 6_000, async () => {
      const x = await health(origin);
      return x.litestream.databases === 1 && x.litestream.shards.length === 1 ? x : undefined;
    });
    expect(h.litestream).toMatchObject({ state: "running", pid: before.litestream.pid, watched: 1 });
    expect(existsSync(join(dirs.data, "litestream", "projects-1.yml"))).toBe(false);
    expect(existsSync(meta)).toBe(false);
  }, 20_000);

  test("a replica that cannot be written: the creation says pending, health is degraded, the lag grows, writes succeed", async () => {
    // The project replicas' folder is a plain file: every snapshot of a project file fails.
    const target = join(dirs.replica, "projects");
    rmSync(target, { recursive: true, force: true });
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, "not a directory");
    const p = await call(origin, token, "POST", "/v2/projects", { name: "Blog", slug: "blog" });
    expect(p.status).toBe(201);
    expect(p.body.backup).toBe("pending");
    expect((await call(origin, token, "POST", "/v2/models", { name: "Post", namespace: "post" })).status).toBe(201);
    const h = await waitFor("the failure and the lag to show", 10_000, async () => {
      const x = await health(origin);
      const failing = x.litestream.lastError?.includes("not a directory");
      return failing && x.status === "degraded" && (x.litestream.lagSeconds ?? 0) >= 1 ? x : undefined;
    });
    expect(h.litestream).toMatchObject({ state: "running", databases: 2 });
    expect((await call(origin, token, "POST", "/v2/model-instances", { model: "post", data: {} })).status).toBe(201);
    await Bun.sleep(500);
    const later = await health(origin);
    expect(later.litestream.lagSeconds!).toBeGreaterThan(h.litestream.lagSeconds!);
    rmSync(target, { force: true });
  }, 20_000);
});

describe("shutdown", () => {
  const dirs = replicaDirs();
  afterAll(() => dirs.remove());

  test("SIGTERM flushes batched writes, then Litestream's last sync carries them to the replica", async () => {
    const { server, origin, token } = await serveReplicated(dirs.env);
    expect((await call(origin, token, "POST", "/v2/projects", { name: "Site", slug: "site" })).status).toBe(201);
    const key = await call(origin, token, "POST", "/v2/tenants/api-keys", { scopes: ["instance:read"], environment: "development" });
    expect(key.status).toBe(201);
    // Litestream takes over a file at its first sync (about a second after start); until then a
    // stop has nothing of it to sync. Wait for that, as any server that ran a while has.
    const pid = await waitFor("the first sync", 10_000, async () => {
      const h = await health(origin);
      return h.litestream.lagSeconds === 0 && existsSync(join(dirs.replica, "projects")) ? h.litestream.pid! : undefined;
    });
    // Key use is kept in memory and written in batches; this one is still pending at SIGTERM.
    expect((await fetch(`${origin}/api/me`, { headers: { "x-api-key": key.body.apiKey } })).status).toBe(200);
    expect(await server.stop()).toBe(0);
    expect(alive(pid)).toBe(false);

    const restoredDir = join(dirs.root, "restored");
    const r = await runCli(["restore"], { ...dirs.env, CAPA_DATA_DIR: restoredDir });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const db = new Database(join(restoredDir, "control.sqlite"), { readonly: true });
    try {
      const row = db.query<{ last_used_at: string | null }, [string]>("SELECT last_used_at FROM api_keys WHERE id = ?").get(key.body.id);
      expect(row?.last_used_at).toBeTruthy();
    } finally {
      db.close();
    }
  }, 20_000);
});
