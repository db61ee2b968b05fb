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
import { Receiver, testCerts } from "../webhooks/receiver.ts";
import { write } from "../../src/domain/unit-of-work.ts";

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

/** A data dir with an owner, a project and `n` draft entries (title and a numeric text `n`), written through the domain. */
function seeded(n: number) {
  const dir = tempDataDir();
  dirs.push(dir);
  const capa = createApp(testConfig(dir.dir));
  const s = capa.services;
  const user = createUser(s, { email: EMAIL, password: PASSWORD });
  const project = createProject(s, { name: "Faults", slug: "faults", ownerId: user.id });
  const h = s.projects.get(project.id);
  const model = createModel(s, h, {
    name: "Post",
    namespace: "post",
    fields: [
      { namespace: "title", type: "string" },
      { namespace: "n", type: "string" },
    ],
  });
  write(s, h, () => {
    for (let i = 0; i < n; i++) createEntry(s, h, "system", { model: "post", data: { title: `Post ${i}`, n: String(i) } });
  });
  capa.close();
  return { dir: dir.dir, projectId: project.id, modelId: model.id, nFieldId: model.fields[1]!.id };
}

async function serve(dir: string, env: Record<string, string> = {}): Promise<{ server: ServerProc; origin: string; token: string }> {
  const server = startServer({ CAPA_DATA_DIR: dir, PORT: "0", CAPA_DEMO: "0", CAPA_LOG_LEVEL: "warn", ...env });
  running.push(server);
  const origin = await server.listening(20_000);
  const login = await fetch(`${origin}/v2/user/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  const token = ((await login.json()) as { accessToken: string }).accessToken;
  return { server, origin, token };
}

test("SIGKILL during a background bulk publish: after restart every entry is published exactly once", async () => {
  const total = 3000;
  const { dir, projectId, modelId } = seeded(total);
  let { server, origin, token } = await serve(dir);
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const started = await fetch(`${origin}/v2/model-instances/bulk-publish`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ modelId, expectedCount: total }),
  });
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
    const b = (await (await fetch(`${origin}/v2/model-instances/bulk/${batchId}`, { headers: auth2 })).json()) as {
      status: string;
      counts: Record<string, number>;
    };
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
  const perEntry = after
    .query("SELECT json_extract(body, '$.data.instanceId') AS id, count(*) AS n FROM events WHERE type = 'instance.published' GROUP BY id HAVING n <> 1")
    .all();
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
    const r = await fetch(`${origin}/v2/model-instances`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ model: "post", data: { title: `Acked ${i}` } }),
    });
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

/** Polls `url` until `until(body)` or the time runs out; answers the last body. */
async function pollFor<T>(url: string, headers: Record<string, string>, until: (b: T) => boolean, ms: number, every = 20): Promise<T> {
  const end = Date.now() + ms;
  let last: T;
  do {
    last = (await (await fetch(url, { headers })).json()) as T;
    if (until(last)) return last;
    await Bun.sleep(every);
  } while (Date.now() < end);
  return last;
}

test("SIGKILL during a field change: the model is never half-converted, and the change finishes after restart", async () => {
  const total = 12_000;
  const { dir, projectId, nFieldId } = seeded(total);
  let { server, origin, token } = await serve(dir);
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const diff = { editFields: [{ id: nFieldId, type: "number" }] };
  const plan = await fetch(`${origin}/v2/models/post/field-changes/plan`, { method: "POST", headers: auth, body: JSON.stringify(diff) });
  expect(plan.status).toBe(202);
  const planned = (await plan.json()) as { id: string; planHash: string };
  await pollFor<{ countsReady: boolean }>(`${origin}/v2/field-changes/${planned.id}`, auth, (b) => b.countsReady, 30_000);
  const apply = await fetch(`${origin}/v2/models/post/field-changes`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ ...diff, planHash: planned.planHash, decisions: [{ opId: nFieldId, choice: "convert" }] }),
  });
  expect(apply.status).toBeLessThan(300);
  const change = (await apply.json()) as { id: string };
  const seen = await pollFor<{ state: string; progress: { done: number } }>(
    `${origin}/v2/field-changes/${change.id}`,
    auth,
    (b) => b.progress.done > 0 || b.state === "done",
    30_000,
    5,
  );
  server.proc.kill(9);
  await server.exited();
  if (process.env.FAULT_DEBUG) console.log("killed at", seen.state, seen.progress);
  expect(["converting", "moving", "done"]).toContain(seen.state);

  // On disk after the kill: every entry is in the old shape or every entry is in the new one,
  // matching the model's field type.
  const file = join(dir, "projects", `${projectId}.sqlite`);
  const shape = () => {
    const db = new Database(file, { readonly: true });
    const type = (
      JSON.parse((db.query("SELECT fields FROM models WHERE namespace = 'post'").get() as { fields: string }).fields) as { id: string; type: string }[]
    ).find((f) => f.id === nFieldId)!.type;
    const kinds = db.query(`SELECT json_type(draft_data, '$."${nFieldId}"') AS t, count(*) AS c FROM entries GROUP BY t`).all() as { t: string; c: number }[];
    db.close();
    return { type, kinds };
  };
  const mid = shape();
  expect(mid.kinds).toHaveLength(1);
  expect(mid.kinds[0]!.c).toBe(total);
  expect(mid.kinds[0]!.t).toBe(mid.type === "string" ? "text" : "integer");

  ({ server, origin, token } = await serve(dir));
  const auth2 = { authorization: `Bearer ${token}` };
  const end = await pollFor<{ state: string; progress: { total: number; done: number; failed: number } }>(
    `${origin}/v2/field-changes/${change.id}`,
    auth2,
    (b) => b.state === "done" || b.state === "failed",
    60_000,
    100,
  );
  expect(end.state).toBe("done");
  expect(end.progress.failed).toBe(0);
  expect(await server.stop()).toBe(0);
  expect(shape()).toEqual({ type: "number", kinds: [{ t: "integer", c: total }] });
  const db = new Database(file, { readonly: true });
  // Each entry's number is the text it held: entry "Post i" holds i.
  const mismatched = (
    db
      .query(
        `SELECT count(*) AS c FROM entries WHERE 'Post ' || json_extract(draft_data, '$."${nFieldId}"') <> (SELECT json_extract(draft_data, '$."' || (SELECT json_extract(value, '$.id') FROM models, json_each(models.fields) WHERE models.namespace = 'post' AND json_extract(value, '$.namespace') = 'title') || '"'))`,
      )
      .get() as { c: number }
  ).c;
  db.close();
  expect(mismatched).toBe(0);
}, 180_000);

test("SIGKILL while webhooks are being sent: after restart every event reaches the endpoint, retries with the same id", async () => {
  const certs = await testCerts();
  const receiver = new Receiver(certs);
  try {
    const total = 400;
    const { dir, projectId, modelId } = seeded(total);
    const env = { CAPA_WEBHOOK_ALLOW_PRIVATE: "1", CAPA_WEBHOOK_CA_FILE: certs.caFile };
    let { server, origin, token } = await serve(dir, env);
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const ep = await fetch(`${origin}/v2/webhooks`, { method: "POST", headers: auth, body: JSON.stringify({ url: receiver.url("/hook") }) });
    expect(ep.status).toBe(201);
    const started = await fetch(`${origin}/v2/model-instances/bulk-publish`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ modelId, expectedCount: total }),
    });
    expect(started.status).toBe(202);
    const deadline = Date.now() + 30_000;
    while (receiver.on("/hook").length === 0 && Date.now() < deadline) await Bun.sleep(5);
    server.proc.kill(9);
    await server.exited();
    const before = new Set(receiver.on("/hook").map((r) => r.headers["webhook-id"]));
    expect(before.size).toBeGreaterThan(0);

    ({ server, origin, token } = await serve(dir, env));
    const file = join(dir, "projects", `${projectId}.sqlite`);
    let expected = new Set<string>();
    const until = Date.now() + 90_000;
    while (Date.now() < until) {
      const db = new Database(file, { readonly: true });
      expected = new Set((db.query("SELECT id FROM events WHERE type = 'instance.published'").all() as { id: string }[]).map((r) => r.id));
      db.close();
      const got = new Set(receiver.on("/hook").map((r) => r.headers["webhook-id"]));
      if (expected.size === total && [...expected].every((id) => got.has(id))) break;
      await Bun.sleep(100);
    }
    expect(await server.stop()).toBe(0);
    const got = receiver.on("/hook");
    expect(expected.size).toBe(total);
    expect(new Set(got.map((r) => r.headers["webhook-id"]))).toEqual(expected);
    // A resend after the crash carries the same id and Idempotency-Key, and the same bytes.
    for (const r of got) expect(r.headers["idempotency-key"]).toBe(r.headers["webhook-id"]!);
    const bodies = new Map<string, string>();
    for (const r of got) {
      const id = r.headers["webhook-id"]!;
      if (bodies.has(id)) expect(r.body).toBe(bodies.get(id)!);
      bodies.set(id, r.body);
    }
  } finally {
    receiver.stop();
  }
}, 180_000);
