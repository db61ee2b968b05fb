// Helpers for the tests that run the real server with a Litestream file replica: a temp folder
// holding `data/` and `replica/`, sign-in over HTTP, health polling, process checks.
import { expect } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { closeHandle } from "../../src/storage/pool.ts";
import { applyPragmas } from "../../src/storage/sqlite.ts";
import { startServer, tempDataDir, type ServerProc } from "../spawn.ts";

export const OWNER = { email: "ops@example.com", password: "ops-password-1" };

/** A temp folder with a data directory and a file replica beside it. */
export function replicaDirs() {
  const tmp = tempDataDir();
  const data = join(tmp.dir, "data");
  const replica = join(tmp.dir, "replica");
  const env = {
    CAPA_DATA_DIR: data,
    CAPA_REPLICA_URL: `file://${replica}`,
    PORT: "0",
    CAPA_DEMO: "0",
    CAPA_ADMIN_EMAIL: OWNER.email,
    CAPA_ADMIN_PASSWORD: OWNER.password,
  };
  return { root: tmp.dir, data, replica, env, remove: tmp.remove };
}

/** A started server and a signed-in owner. */
export async function serveReplicated(env: Record<string, string>): Promise<{ server: ServerProc; origin: string; token: string }> {
  const server = startServer(env);
  const origin = await server.listening();
  const login = await fetch(`${origin}/v2/user/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(OWNER),
  });
  expect(login.status).toBe(200);
  return { server, origin, token: ((await login.json()) as { accessToken: string }).accessToken };
}

/** A JSON request with the owner's token. */
export async function call(origin: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(origin + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : null };
}

export interface Health {
  status: string;
  storage: { ok: boolean; openProjects: number };
  litestream: {
    state: string;
    pid: number | null;
    databases: number;
    restarts: number;
    reloads: number;
    lastError: string | null;
    lagSeconds: number | null;
    watched: number;
    maxWatched: number;
    settled: number;
    shards: { name: string; state: string; pid: number | null; databases: number; restarts: number; reloads: number; lastError: string | null }[];
  };
  loops: { name: string; runs: number }[];
}

export async function health(origin: string): Promise<Health> {
  const r = await fetch(`${origin}/healthz`);
  expect(r.status).toBe(200);
  return (await r.json()) as Health;
}

/** Polls `fn` every 100 ms until it returns a value (not undefined), or fails after `ms`. */
export async function waitFor<T>(what: string, ms: number, fn: () => Promise<T | undefined>): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await Bun.sleep(100);
  }
}

/** Whether a process is alive. A zombie (exited, not yet reaped) counts as gone. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = require("node:fs").readFileSync(`/proc/${pid}/stat`, "utf8") as string;
    return stat.split(") ")[1]?.[0] !== "Z";
  } catch {
    return true;
  }
}

/**
 * Writes rows to SQLite files in a data directory as the server does (one open connection per
 * file, opened as replicated files are, so no close checkpoints), counting the rows of each.
 */
export function fileWriter(data: string) {
  const dbs = new Map<string, Database>();
  const rows = new Map<string, number>();
  return {
    rows,
    write(rel: string): void {
      let db = dbs.get(rel);
      if (!db) {
        db = new Database(join(data, rel));
        applyPragmas(db, { replicated: true });
        db.exec("CREATE TABLE IF NOT EXISTS t (n INTEGER)");
        dbs.set(rel, db);
      }
      const n = (rows.get(rel) ?? 0) + 1;
      db.query("INSERT INTO t (n) VALUES (?)").run(n);
      rows.set(rel, n);
    },
    close(): void {
      for (const db of dbs.values()) closeHandle(db);
    },
  };
}
