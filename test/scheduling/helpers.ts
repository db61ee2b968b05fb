// Shared set-up of the scheduling and bulk tests: an owner with a project, a `post` model whose
// `title` is required, entries, keys, the project file's events, and a restart on the same data
// directory. The clock starts at 2026-11-21T12:00:00Z (test/harness.ts) and only moves when told.
import { expect } from "bun:test";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp, withOwner, type Harness } from "../harness.ts";
import type { ProjectHandle } from "../../src/storage/pool.ts";

export const MIN = 60_000;

export interface World {
  h: Harness;
  token: string;
  projectId: string;
  userId: string;
  /** The open project file. */
  ph(): ProjectHandle;
}

interface Template {
  dir: string;
  token: string;
  projectId: string;
  userId: string;
}

let template: Promise<Template> | null = null;

/**
 * Signing up hashes a password (argon2id), which is slow on purpose; the data directory of an
 * owner with a project and the `post` model is made once per test file and copied for each world.
 * The JWT secret lives in the copied control file, so the template's token stays valid.
 */
async function makeTemplate(): Promise<Template> {
  const h = startApp();
  const { token, project, user } = await withOwner(h);
  const m = await h.json("POST", "/v2/models", {
    token,
    body: {
      name: "Post",
      namespace: "post",
      fields: [
        { namespace: "title", type: "string", required: true },
        { namespace: "body", type: "markdown" },
      ],
    },
  });
  expect(m.status).toBe(201);
  h.capa.close();
  process.on("exit", () => rmSync(h.dir, { recursive: true, force: true }));
  return { dir: h.dir, token, projectId: project.id, userId: user.id };
}

/** A fresh app with an owner, a project and a `post` model (title required, body optional). */
export async function world(): Promise<World> {
  template ??= makeTemplate();
  const t = await template;
  const dir = mkdtempSync(join(tmpdir(), "capa-test-"));
  cpSync(t.dir, dir, { recursive: true });
  const h = startApp({}, dir);
  return { h, token: t.token, projectId: t.projectId, userId: t.userId, ph: () => h.capa.services.projects.get(t.projectId) };
}

/** A new access token for the owner (tokens last 24 hours of the test clock). */
export async function signIn(w: World): Promise<string> {
  const login = await w.h.json("POST", "/v2/user/login", { body: { email: "owner@example.com", password: "owner-password-1" } });
  expect(login.status).toBe(200);
  return login.body.accessToken;
}

/** Creates a draft `post`; without a title it cannot be published. */
export async function post(w: World, title: string | null = "Hello", body?: string): Promise<{ id: string; draft: { versionId: string } }> {
  const data: Record<string, unknown> = {};
  if (title !== null) data.title = title;
  if (body !== undefined) data.body = body;
  const r = await w.h.json("POST", "/v2/model-instances", { token: w.token, body: { model: "post", data } });
  expect(r.status).toBe(201);
  return r.body;
}

/** Mints a legacy key (`permission`) or a scoped key (`scopes`) and answers its secret. */
export async function key(w: World, body: Record<string, unknown>): Promise<string> {
  const r = await w.h.json("POST", "/v2/tenants/api-keys", { token: w.token, body });
  expect(r.status).toBe(201);
  return r.body.apiKey;
}

/** The local wall time `ms` from the clock's now, in UTC, as `YYYY-MM-DDTHH:mm:ss`. */
export function wallIn(w: World, ms: number): string {
  return new Date(w.h.clock.now() + ms).toISOString().slice(0, 19);
}

/** Schedules one action through the API and answers the whole 201 body. */
export async function schedule(w: World, body: Record<string, unknown>, headers?: Record<string, string>) {
  const r = await w.h.json("POST", "/v2/scheduled-actions", { token: w.token, body: { timezone: "UTC", ...body }, headers });
  expect(r.status).toBe(201);
  return r.body;
}

/** The events of the project file of a type, oldest first, as parsed envelopes. */
export function events(w: World, type: string): any[] {
  return (w.ph().sqlite.query("SELECT body FROM events WHERE type = ? ORDER BY seq").all(type) as { body: string }[]).map((r) => JSON.parse(r.body));
}

/** The status of an entry as /v2 reports it. */
export async function entryStatus(w: World, id: string): Promise<string> {
  return (await w.h.json("GET", `/v2/model-instances/${id}`, { token: w.token })).body.status;
}

/** Closes the app without removing its data directory and starts a new one on it (a restart). */
export function restart(w: World, at: number): World {
  w.h.capa.close();
  const h = startApp({}, w.h.dir);
  h.clock.set(at);
  return { ...w, h, ph: () => h.capa.services.projects.get(w.projectId) };
}
