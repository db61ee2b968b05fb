// The shared fixture of the edge tests: an app whose CAPA_EDGE_* settings are read by the real
// settings reader, a project with a `post` model (title, cover image) and a production and a
// development key, and readers of the purge outbox of a project file or the control file.
import { expect } from "bun:test";
import type { Database } from "bun:sqlite";
import { readEdgeSettings } from "../../src/domain/edge/settings.ts";
import type { Config } from "../../src/config.ts";
import { startApp, withOwner, type Harness } from "../harness.ts";

export const TOKEN = "edge-token-0123456789abcdef";

/** The Config overrides of CAPA_EDGE_* values (the token with a purge; private addresses allowed, as the local servers are). */
export function edgeConfig(env: Record<string, string>): Partial<Config> {
  return { edge: readEdgeSettings({ ...(env.CAPA_EDGE_PURGE ? { CAPA_EDGE_TOKEN: TOKEN } : {}), CAPA_EDGE_ALLOW_PRIVATE: "1", ...env }) };
}

export interface EdgeProject {
  h: Harness;
  token: string;
  projectId: string;
  /** The management options of a request (signed in, this project). */
  as(): { token: string; headers: Record<string, string> };
  prod: { id: string; secret: string };
  dev: { id: string; secret: string };
  /** Creates and publishes a post; answers its id. */
  post(title: string, data?: Record<string, unknown>): Promise<string>;
  /** Saves a new title and publishes it. */
  republish(id: string, title: string): Promise<void>;
  /** Sends a management request that must succeed; answers its body. */
  ok(method: string, path: string, body?: unknown): Promise<any>;
  /** A read with a key. */
  read(path: string, key: string, headers?: Record<string, string>): Promise<Response>;
}

/** An app with `over` on a fresh (or given) data directory, and a project to read. */
export async function edgeProject(over: Partial<Config>, dir?: string): Promise<EdgeProject> {
  const h = startApp(over, dir);
  const { token, project } = await withOwner(h);
  const ok = okOf(h, token, project.id);
  await ok("POST", "/v2/models", {
    name: "Post",
    namespace: "post",
    fields: [
      { namespace: "title", type: "string" },
      { namespace: "cover", type: "image" },
    ],
  });
  const mint = async (environment: string) => {
    const b = await ok("POST", "/v2/tenants/api-keys", { name: environment, scopes: ["instance:read"], environment });
    return { id: b.id as string, secret: b.apiKey as string };
  };
  const p = bind(h, token, project.id, await mint("production"), await mint("development"));
  // The model's creation purged model:post; each test starts with empty outboxes.
  clearOutbox(p);
  return p;
}

/** The same project in a new app on the same data directory (a restart), with `over`; time goes on from where it was. */
export function reopen(p: EdgeProject, over: Partial<Config>): EdgeProject {
  const h = startApp(over, p.h.dir);
  h.clock.set(p.h.clock.now());
  return bind(h, p.token, p.projectId, p.prod, p.dev);
}

function okOf(h: Harness, token: string, projectId: string): EdgeProject["ok"] {
  return async (method, path, body) => {
    const r = await h.json(method, path, { token, headers: { "x-svc-project": projectId }, body });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
}

function bind(h: Harness, token: string, projectId: string, prod: EdgeProject["prod"], dev: EdgeProject["dev"]): EdgeProject {
  const ok = okOf(h, token, projectId);
  return {
    h,
    token,
    projectId,
    as: () => ({ token, headers: { "x-svc-project": projectId } }),
    prod,
    dev,
    ok,
    async post(title, data = {}) {
      const e = await ok("POST", "/v2/model-instances", { model: "post", data: { title, ...data } });
      await ok("POST", `/v2/model-instances/${e.id}/publish`);
      return e.id as string;
    },
    async republish(id, title) {
      await ok("PATCH", `/v2/model-instances/${id}`, { data: { title } });
      await ok("POST", `/v2/model-instances/${id}/publish`);
    },
    read: (path, key, headers = {}) => h.req("GET", path, { headers: { "x-api-key": key, ...headers } }),
  };
}

/** One row of a purge outbox as the test reads it. */
export interface Row {
  target: string;
  tags: string[];
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
}

/** The purge rows of a file, oldest first. */
export function rowsOf(sqlite: Database): Row[] {
  return (
    sqlite.query("SELECT target, tags, attempts, next_attempt_at, last_error FROM edge_purges ORDER BY seq").all() as {
      target: string;
      tags: string;
      attempts: number;
      next_attempt_at: string;
      last_error: string | null;
    }[]
  ).map((r) => ({ target: r.target, tags: JSON.parse(r.tags), attempts: r.attempts, nextAttemptAt: r.next_attempt_at, lastError: r.last_error }));
}

/** The purge rows of a project file, and of the control file. */
export function outbox(p: EdgeProject): { project: Row[]; control: Row[] } {
  const s = p.h.capa.services;
  return { project: rowsOf(s.projects.get(p.projectId).sqlite), control: rowsOf(s.control.sqlite) };
}

/** Empties both outboxes (between the cases of a table). */
export function clearOutbox(p: EdgeProject): void {
  const s = p.h.capa.services;
  s.projects.get(p.projectId).sqlite.run("DELETE FROM edge_purges");
  s.control.sqlite.run("DELETE FROM edge_purges");
  expect(outbox(p)).toEqual({ project: [], control: [] });
}
