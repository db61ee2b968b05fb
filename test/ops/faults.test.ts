// Fault tests with real kills: the server runs as a child process and is stopped with SIGKILL in
// the middle of work; on restart nothing is half-done and nothing acknowledged is lost.
import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { createProject } from "../../src/domain/projects/service.ts";
import { createModel } from "../../src/domain/models/service.ts";
import { createEntry } from "../../src/domain/entries/service.ts";
import { startServer, tempDataDir, type ServerProc } from "../spawn.ts";

const EMAIL = "faults@example.com";
const PASSWORD = "faults-password-1";
let running: ServerProc[] = [];
let dirs: { remove(): void }[] = [];

afterEach(async () => {
  for (const s of running) if (s.proc.exitCode === null) s.proc.kill(9);
  running = [];
  for (const d of dirs) d.remove();
  dirs = [];
});

/** A data dir with an owner, a project and `n` draft entries, written through the domain. */
function seeded(n: number) {
  const dir = tempDataDir();
  dirs.push(dir);
  const capa = createApp(testConfig(dir.dir));
  const s = capa.services;
  const user = createUser(s, { email: EMAIL, password: PASSWORD });
  const project = createProject(s, { name: "Faults", slug: "faults", ownerId: user.id });
  const h = s.projects.get(project.id);
  const model = createModel(s, h, { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] });
  h.sqlite.transaction(() => {
    for (let i = 0; i < n; i++) createEntry(s, h, "system", { model: "post", data: { title: `Post ${i}` } });
  })();
  capa.close();
  return { dir: dir.dir, projectId: project.id, modelId: model.id };
}

async function serve(dir: string): Promise<{ server: ServerProc; origin: string; token: string }> {
  const server = startServer({ CAPA_DATA_DIR: dir, PORT: "0", CAPA_DEMO: "0", CAPA_LOG_LEVEL: "warn" });
  running.push(server);
  const origin = await server.listening(20_000);
  const login = await fetch(`${origin}/v2/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
  const token = ((await login.json()) as { accessToken: string }).accessToken;
  return { server, origin, token };
}

test("SIGKILL during a background bulk publish: after restart every entry is published exactly once", async () => {
  const total = 3000;
  const { dir, projectId, modelId } = seeded(total);
  let { server, origin, token } = await serve(dir);
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const started = await fetch(`${origin}/v2/model-instances/bulk-publish`, { method: "POST", headers: auth, body: JSON.stringify({ modelId, expectedCount: total }) });
  expect(started.status).toBe(202);
  const { batchId } = (await started.json()) as { batchId: string };
  // Kill as soon as part of the batch is done.
  let done = 0;
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const b = (await (await fetch(`${origin}/v2/model-instances/bulk/${batchId}`, { headers: auth })).json()) as { counts: { done: number } };
    done = b.counts.done;
    if (done > 0) break;
    await Bun.sleep(10);
  }
  server.proc.kill(9);
  await server.exited();
  expect(done).toBeGreaterThan(0);

  // On disk after the kill: every entry recorded as done is published with exactly one event,
  // and no entry is published without being recorded (nothing half-done).
  const file = join(dir, "projects", `${projectId}.sqlite`);
  const db = new Database(file);
  const recorded = (db.query("SELECT count(*) AS n FROM bulk_batch_items WHERE batch_id = ? AND result = 'done'").get(batchId) as { n: number }).n;
  const published = (db.query("SELECT count(*) AS n FROM entries WHERE published_version_id IS NOT NULL").get() as { n: number }).n;
  const events = (db.query("SELECT count(*) AS n FROM events WHERE type = 'instance.published'").get() as { n: number }).n;
  db.close();
  expect(published).toBe(recorded);
  expect(events).toBe(recorded);
  expect(recorded).toBeLessThan(total);

  // Restart: the batch resumes and finishes.
  ({ server, origin, token } = await serve(dir));
  const auth2 = { authorization: `Bearer ${token}` };
  let status = "";
  const until2 = Date.now() + 60_000;
  while (Date.now() < until2) {
    const b = (await (await fetch(`${origin}/v2/model-instances/bulk/${batchId}`, { headers: auth2 })).json()) as { status: string; counts: Record<string, number> };
    status = b.status;
    if (status === "done") {
      expect(b.counts).toEqual({ done: total, skipped: 0, failed: 0, remaining: 0 });
      break;
    }
    await Bun.sleep(100);
  }
  expect(status).toBe("done");
  expect(await server.stop()).toBe(0);
  const after = new Database(file);
  const perEntry = after.query(
    "SELECT json_extract(body, '$.data.instanceId') AS id, count(*) AS n FROM events WHERE type = 'instance.published' GROUP BY id HAVING n <> 1",
  ).all();
  const unpublished = (after.query("SELECT count(*) AS n FROM entries WHERE published_version_id IS NULL").get() as { n: number }).n;
  const eventCount = (after.query("SELECT count(*) AS n FROM events WHERE type = 'instance.published'").get() as { n: number }).n;
  after.close();
  expect(perEntry).toEqual([]);
  expect(unpublished).toBe(0);
  expect(eventCount).toBe(total);
}, 120_000);

test("SIGKILL right after a write is acknowledged: the write is there after restart", async () => {
  const { dir, projectId } = seeded(0);
  let { server, origin, token } = await serve(dir);
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const r = await fetch(`${origin}/v2/model-instances`, { method: "POST", headers: auth, body: JSON.stringify({ model: "post", data: { title: `Acked ${i}` } }) });
    expect(r.status).toBe(201);
    ids.push(((await r.json()) as { id: string }).id);
  }
  const pub = await fetch(`${origin}/v2/model-instances/${ids[0]}/publish`, { method: "POST", headers: auth, body: "{}" });
  expect(pub.status).toBe(200);
  server.proc.kill(9);
  await server.exited();
  ({ server, origin, token } = await serve(dir));
  const list = await fetch(`${origin}/v2/model-instances?model=post&limit=50`, { headers: { authorization: `Bearer ${token}`, "x-svc-project": projectId } });
  const body = (await list.json()) as { data: { id: string; status: string }[]; total: number };
  expect(body.total).toBe(20);
  expect(new Set(body.data.map((e) => e.id))).toEqual(new Set(ids));
  expect(body.data.find((e) => e.id === ids[0])!.status).toBe("published");
  expect(await server.stop()).toBe(0);
}, 60_000);
