// Checks a /v2 answer against the answer model its route declares (src/http/v2/doc.ts): the
// document promises these shapes, so a test that runs real requests can hold the server to them.
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import { expect } from "bun:test";
import type { CapaApp } from "../../src/app.ts";
import { ROUTE_DOC, type RouteDoc } from "../../src/http/v2/doc.ts";
import type { Harness } from "../harness.ts";

interface Row {
  method: string;
  path: string;
  hooks?: { detail?: Record<string, unknown> };
}

/** The route of the app's table that a request reaches (exact paths before patterns). */
export function routeOf(capa: CapaApp, method: string, path: string): Row | undefined {
  const rows = (capa.routes() as Row[]).filter((r) => r.method === method);
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
  const errors = [...Value.Errors(model, body)].slice(0, 3).map((e) => `${method} ${path} ${status}: ${e.path} ${e.message}`);
  return errors.length > 0 ? errors : enumProblems(model as Node, body, "").map((p) => `${method} ${path} ${status}: ${p}`);
}

type Node = { enum?: unknown[]; properties?: Record<string, Node>; patternProperties?: Record<string, Node>; items?: Node; anyOf?: Node[] };

/**
 * The words a value holds that its schema's `enum` does not list. TypeBox's check reads a
 * `{ type: "string", enum }` as any string (src/domain/access/schema-kit.ts `oneOf`), while the
 * admin app's types rely on the words, so the answers are held to them here.
 */
export function enumProblems(schema: Node, value: unknown, path: string): string[] {
  if (schema.enum && !schema.enum.includes(value)) return [`${path || "/"} ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`];
  if (schema.anyOf) {
    // A member that refers to its recursive parent cannot be checked alone: it counts as fitting.
    const fits = schema.anyOf.filter((m) => {
      try {
        return Value.Check(m as TSchema, value);
      } catch {
        return true;
      }
    });
    return fits.some((m) => enumProblems(m, value, path).length === 0) || fits.length === 0 ? [] : enumProblems(fits[0]!, value, path);
  }
  if (Array.isArray(value)) return schema.items ? value.flatMap((v, i) => enumProblems(schema.items!, v, `${path}/${i}`)) : [];
  if (value === null || typeof value !== "object") return [];
  const o = value as Record<string, unknown>;
  const out: string[] = [];
  for (const [k, sub] of Object.entries(schema.properties ?? {})) if (k in o) out.push(...enumProblems(sub, o[k], `${path}/${k}`));
  for (const sub of Object.values(schema.patternProperties ?? {})) for (const [k, v] of Object.entries(o)) out.push(...enumProblems(sub, v, `${path}/${k}`));
  return out;
}

/**
 * A walk of requests as one signed-in person in one project: `go` sends a request, checks its
 * status and its answer against the declared model (problems collect), notes the route covered,
 * and answers the body. `who` is read at each request (the walks sign in in beforeAll).
 */
export function answerWalk(who: () => { h: Harness; token: string; projectId: string }) {
  const covered = new Set<string>();
  const problems: string[] = [];
  async function go(method: string, path: string, body?: unknown, status = 200): Promise<any> {
    const { h, token, projectId } = who();
    const r = await h.json(method, path, { token, body, headers: { "x-svc-project": projectId } });
    expect([method, path, r.status]).toEqual([method, path, status]);
    problems.push(...answerProblems(h.capa, method, path, r.status, r.body));
    const route = routeOf(h.capa, method, path);
    if (route) covered.add(`${method} ${route.path}`);
    return r.body;
  }
  return { go, covered, problems };
}
