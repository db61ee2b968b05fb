// One harness for black-box tests: the real app on a temp data dir, requests through app.handle,
// a manual clock, and helpers to sign in and seed.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, type AppDeps, type CapaApp } from "../src/app.ts";
import { testConfig, type Config } from "../src/config.ts";
import { ManualClock } from "../src/infra/clock.ts";
import { createUser } from "../src/domain/users/service.ts";
import { createProject } from "../src/domain/projects/service.ts";

export interface Harness {
  capa: CapaApp;
  clock: ManualClock;
  dir: string;
  /** Sends a request to the app; `body` objects are sent as JSON. */
  req(method: string, path: string, opts?: { body?: unknown; headers?: Record<string, string>; token?: string; raw?: BodyInit }): Promise<Response>;
  /** Sends a request and parses the JSON answer (null for an empty body). */
  json(method: string, path: string, opts?: Parameters<Harness["req"]>[2]): Promise<{ status: number; body: any; headers: Headers }>;
  close(): void;
}

export const BASE = "http://capa.test";

/** Starts a fresh app on a temp directory; `deps` may bring a logger (the clock is the harness's). */
export function startApp(over: Partial<Config> = {}, dir = mkdtempSync(join(tmpdir(), "capa-test-")), deps: Omit<AppDeps, "clock"> = {}): Harness {
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 12, 0, 0));
  // JWT verification uses the injected clock, so a frozen clock in the past is fine.
  const capa = createApp(testConfig(dir, over), { ...deps, clock });
  const req: Harness["req"] = (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    let body: BodyInit | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    return capa.app.handle(new Request(BASE + path, { method, headers, body }));
  };
  return {
    capa,
    clock,
    dir,
    req,
    async json(method, path, opts) {
      const res = await req(method, path, opts);
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
    },
    close() {
      capa.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A person with a project, signed in. */
export async function withOwner(h: Harness, email = "owner@example.com", password = "owner-password-1") {
  const user = createUser(h.capa.services, { email, password });
  const project = createProject(h.capa.services, { name: "Test Project", slug: `test-${user.id.slice(-8)}`, ownerId: user.id });
  const login = await h.json("POST", "/v2/user/login", { body: { email, password } });
  return { user, project, token: login.body.accessToken as string, refreshToken: login.body.refreshToken as string };
}
