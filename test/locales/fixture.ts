// The shared fixture of the localization tests (decisions.md 13): an app on a temp data directory,
// a signed-in owner whose project has four locales (en, the default; de falling back to en; de-CH
// falling back to de; fr with no fallback), a production and a development read key, and
// helpers for management requests and reads.
import { expect } from "bun:test";
import type { Config } from "../../src/config.ts";
import { startApp, withOwner, type Harness } from "../harness.ts";

/** The locales every test project starts from. */
export const FOUR = {
  default: "en",
  locales: [
    { code: "en", name: "English", fallback: [] },
    { code: "de", name: "German", fallback: ["en"] },
    { code: "de-CH", name: "Swiss German", fallback: ["de"] },
    { code: "fr", name: "French", fallback: [] },
  ],
};

export interface L10n {
  h: Harness;
  token: string;
  projectId: string;
  prod: string;
  dev: string;
  /** A management request as the owner; answers status, body and headers. */
  json(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }>;
  /** A management request that must succeed; answers its body. */
  ok(method: string, path: string, body?: unknown): Promise<any>;
  /** A read of /api with a key. */
  read(path: string, key: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
}

/** A fresh app and project with the four locales (or `locales`), and two read keys. */
export async function l10n(over: Partial<Config> = {}, locales: unknown = FOUR): Promise<L10n> {
  const h = startApp(over);
  const { token, project } = await withOwner(h);
  const json: L10n["json"] = (method, path, body) => h.json(method, path, { token, body });
  const ok: L10n["ok"] = async (method, path, body) => {
    const r = await json(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  if (locales !== null) expect((await json("PUT", "/v2/locales", locales)).status).toBe(200);
  const mint = async (environment: string) =>
    (await ok("POST", "/v2/tenants/api-keys", { name: environment, scopes: ["instance:read"], environment })).apiKey as string;
  return {
    h,
    token,
    projectId: project.id,
    prod: await mint("production"),
    dev: await mint("development"),
    json,
    ok,
    read: (path, key, headers = {}) => h.json("GET", path, { headers: { "x-api-key": key, ...headers } }),
  };
}

/** The /api error envelope of a refusal, without the request id. */
export function apiError(code: string, message: string, param: string | undefined, hint: string | undefined, type = "invalid_request") {
  return {
    error: {
      type,
      code,
      message,
      ...(param === undefined ? {} : { param }),
      ...(hint === undefined ? {} : { hint }),
      docs: `http://capa.test/docs/errors/${code}`,
    },
    meta: { version: "2026-10-01", contract: 1, requestId: expect.any(String) },
  };
}

/** The hint of an invalid_locale read refusal in the four-locale project. */
export const KNOWN = (param: string) => `Known locales: en, de, de-CH, fr. Example: ${param}=fr`;
