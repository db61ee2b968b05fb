// End to end, with real time: the server runs as a child process with its job timers. An action
// is scheduled through the API (at least 60 s ahead, as the API requires), the server is stopped,
// the action's time is moved to a few seconds after the next start in the project file, and the
// server is started again: the runner's own timer (not the first tick's catch-up: the action is
// still ahead then) publishes the entry and writes the webhook-ready instance.published event
// (actor schedule) into the project's outbox. Waiting the real 60 s took about a minute of the
// suite; the API's 60 s rule and every other case drive the injected clock in the other tests.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { startServer, tempDataDir, type ServerProc } from "../spawn.ts";

const data = tempDataDir();
let server: ServerProc | null = null;
afterAll(async () => {
  await server?.stop();
  data.remove();
});

const ENV = {
  CAPA_DATA_DIR: data.dir,
  PORT: "0",
  CAPA_DEMO: "0",
  CAPA_ADMIN_EMAIL: "e2e@example.com",
  CAPA_ADMIN_PASSWORD: "e2e-password-1",
};

test("an action scheduled through the API survives a restart and its timer publishes the entry, emitting instance.published with actor schedule", async () => {
  server = startServer(ENV);
  let origin = await server.listening(15_000);
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(origin + path, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const token = (await call("POST", "/v2/user/login", { email: "e2e@example.com", password: "e2e-password-1" })).body.accessToken as string;
  const project = await call("POST", "/v2/projects", { name: "E2E" }, token);
  expect(project.status).toBe(201);
  expect((await call("POST", "/v2/models", { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] }, token)).status).toBe(201);
  const entry = (await call("POST", "/v2/model-instances", { model: "post", data: { title: "Goes live by itself" } }, token)).body;

  // 62 s ahead, cut to whole seconds: between 61 and 62 s, so at least 60 s ahead when it arrives.
  const zone = "Europe/Berlin";
  const wallTime = Temporal.Now.zonedDateTimeISO(zone).add({ seconds: 62 }).toPlainDateTime().toString({ smallestUnit: "second" });
  const scheduled = await call(
    "POST",
    "/v2/scheduled-actions",
    { action: "publish", targets: [{ type: "instance", id: entry.id }], wallTime, timezone: zone },
    token,
  );
  expect(scheduled.status).toBe(201);
  const action = scheduled.body.actions[0];
  expect(Date.parse(scheduled.body.resolved.at) - Date.now()).toBeGreaterThan(59_000);

  // Stopped, the action moved to 6 s after now in the file (a start takes 1-2 s), started again.
  expect(await server.stop()).toBe(0);
  const file = join(data.dir, "projects", `${project.body.id}.sqlite`);
  const due = Date.now() + 6_000;
  const rw = new Database(file);
  try {
    expect(rw.query("UPDATE scheduled_actions SET run_at = ? WHERE id = ? AND status = 'pending'").run(new Date(due).toISOString(), action.id).changes).toBe(1);
  } finally {
    rw.close();
  }
  server = startServer(ENV);
  origin = await server.listening(15_000);

  // Nothing happens early.
  expect((await call("GET", `/v2/model-instances/${entry.id}`, undefined, token)).body.status).toBe("draft");
  let status = "draft";
  while (Date.now() < due + 15_000) {
    await Bun.sleep(Math.max(250, Math.min(5_000, due - Date.now())));
    status = (await call("GET", `/v2/model-instances/${entry.id}`, undefined, token)).body.status;
    if (status === "published") break;
    expect(Date.now()).toBeLessThan(due + 15_000);
  }
  expect(status).toBe("published");
  const publishedAt = Date.parse((await call("GET", `/v2/model-instances/${entry.id}`, undefined, token)).body.publishedAt);
  expect(publishedAt).toBeGreaterThanOrEqual(due);
  expect(publishedAt).toBeLessThan(due + 5_000);
  expect((await call("GET", `/v2/scheduled-actions/${action.id}`, undefined, token)).body).toMatchObject({ status: "done", attempts: 1 });

  // The outbox row, read from the project file while the server runs (WAL allows a reader).
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.query("SELECT body FROM events WHERE type = 'instance.published'").all() as { body: string }[];
    expect(rows).toHaveLength(1);
    const ev = JSON.parse(rows[0]!.body);
    expect(ev).toMatchObject({
      type: "instance.published",
      tenantId: project.body.id,
      actor: { kind: "schedule", id: action.id },
      data: { instanceId: entry.id, scheduledActionId: action.id, title: "Goes live by itself", versionNumber: 1 },
    });
    expect(ev.id).toMatch(/^evt_/);
  } finally {
    db.close();
  }
}, 60_000);
