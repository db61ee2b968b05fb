// End to end, with real time: the server runs as a child process with its job timers, an action
// is scheduled a little over 60 seconds ahead, and the runner publishes the entry on its own,
// writing the webhook-ready instance.published event (actor schedule) into the project's outbox.
// This is the one slow test of scheduling (about 65 s); every other test drives the clock.
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

test("an action scheduled ~61 s ahead publishes the entry and emits instance.published with actor schedule", async () => {
  server = startServer({
    CAPA_DATA_DIR: data.dir,
    PORT: "0",
    CAPA_DEMO: "0",
    CAPA_ADMIN_EMAIL: "e2e@example.com",
    CAPA_ADMIN_PASSWORD: "e2e-password-1",
  });
  const origin = await server.listening(15_000);
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
  const due = Date.parse(scheduled.body.resolved.at);
  expect(due - Date.now()).toBeGreaterThan(59_000);

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
  const db = new Database(join(data.dir, "projects", `${project.body.id}.sqlite`), { readonly: true });
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
}, 120_000);
