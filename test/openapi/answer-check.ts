// Checks a /v2 answer against the answer model its route declares (src/http/v2/doc.ts): the
// document promises these shapes, so a test that runs real requests can hold the server to them.
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import type { CapaApp } from "../../src/app.ts";
import { ROUTE_DOC, type RouteDoc } from "../../src/http/v2/doc.ts";

interface Row {
  method: string;
  path: string;
  hooks?: { detail?: Record<string, unknown> };
}

/** The route of the app's table that a request reaches (exact paths before patterns). */
export function routeOf(capa: CapaApp, method: string, path: string): Row | undefined {
  const rows = (capa.app.routes as Row[]).filter((r) => r.method === method);
  const clean = path.split("?")[0]!.replace(/\/$/, "");
  const exact = rows.find((r) => r.path.replace(/\/$/, "") === clean);
  if (exact) return exact;
  return rows.find((r) => new RegExp(`^${r.path.replace(/\/$/, "").replace(/:[^/]+/g, "[^/]+")}$`).test(clean));
}

/** The problems of an answer against its route's declared model: [] when it fits (or has none). */
export function answerProblems(capa: CapaApp, method: string, path: string, status: number, body: unknown): string[] {
  if (status >= 400) return [];
  const doc = routeOf(capa, method, path)?.hooks?.detail?.[ROUTE_DOC] as RouteDoc | undefined;
  if (!doc) return path.startsWith("/v2/") ? [`${method} ${path}: no declared answers`] : [];
  if (!(status in doc.answers)) return [`${method} ${path}: status ${status} is not declared`];
  const model = doc.answers[status] as TSchema | null;
  if (model === null) return body === null ? [] : [`${method} ${path}: ${status} has a body`];
  return [...Value.Errors(model, body)].slice(0, 3).map((e) => `${method} ${path} ${status}: ${e.path} ${e.message}`);
}
