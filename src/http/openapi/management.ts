// The OpenAPI 3.1 document of the management API (GET /v2/openapi.json; decisions.md 12), built
// from the app's own route table: every /v2 route, with the body model its handler checks
// (typedBody), its answers and who may call it, as each route declares in its `detail`
// (src/http/v2/doc.ts). Nothing here lists routes by hand, so a route cannot be left out.
import type { TSchema } from "@sinclair/typebox";
import { ROUTE_AUTH, ROUTE_DOC, type RouteAuth, type RouteDoc } from "../v2/doc.ts";
import { Components, type Json } from "./json-schema.ts";
import { ManagementError } from "./errors.ts";

/** A route of the app's table, as Elysia lists it. */
export interface RouteRow {
  method: string;
  path: string;
  hooks?: { detail?: Record<string, unknown> };
}

/** The legacy surfaces under /v2 (interface.md: their shapes are not shown); not management routes. */
const LEGACY = /^\/v2\/(api|schema|seo)(\/|$)/;

/** Whether a route of the table is a management route, which the document must hold. */
export function isManagementRoute(r: RouteRow): boolean {
  return r.path.startsWith("/v2/") && !LEGACY.test(r.path) && r.method !== "ALL";
}

/** `/v2/workspaces/:id/` as OpenAPI writes it: `/v2/workspaces/{id}`. */
export function openApiPath(path: string): string {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  return trimmed.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

/** A stable operation id: the method and the path's words (`post_v2_workspaces_id_nodes`). */
function operationId(method: string, path: string): string {
  return `${method.toLowerCase()}_${path
    .replace(/[{}]/g, "")
    .split("/")
    .filter(Boolean)
    .join("_")
    .replace(/[^A-Za-z0-9_]/g, "_")}`;
}

/** The first word after the mount: the group a route is listed under. */
function tagOf(path: string): string {
  const parts = path.split("/").filter(Boolean);
  return (parts[1] === "agent" ? parts[2] : parts[1]) ?? "v2";
}

function securityOf(path: string, auth: RouteAuth | undefined): Json[] {
  if (path.startsWith("/v2/agent/")) return [{ agentKey: [] }];
  return auth ? [{ bearer: [] }] : [];
}

function describeAuth(path: string, auth: RouteAuth | undefined): string {
  if (!auth) return "No authentication.";
  if (auth.kind === "signedIn") return "Any signed-in person.";
  const who = path.startsWith("/v2/agent/") ? "A legacy key" : auth.kind === "person" ? "A person (never a key)" : "A person";
  return `${who} holding \`${auth.scope}\`.`;
}

function queryParameters(c: Components, query: TSchema | undefined): Json[] {
  if (!query) return [];
  const s = c.schema(query) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(s.properties ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return { name, in: "query", required: s.required?.includes(name) ?? false, schema: rest, ...(description ? { description } : {}) };
  });
}

function operation(c: Components, method: string, path: string, detail: Record<string, unknown>): Json {
  const d = detail[ROUTE_DOC] as RouteDoc | undefined;
  const auth = detail[ROUTE_AUTH] as RouteAuth | undefined;
  const params = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } }));
  const op: Json = {
    operationId: operationId(method, path),
    summary: d?.summary ?? "Undocumented route",
    description: describeAuth(path, auth),
    tags: [tagOf(path)],
    security: securityOf(path, auth),
  };
  if (auth?.scope) op["x-capa-scope"] = auth.scope;
  // People's project routes act in the project of x-svc-project (or the one last opened); a key acts in its own.
  const project =
    auth && auth.kind !== "signedIn" && !path.startsWith("/v2/agent/")
      ? [
          {
            name: "x-svc-project",
            in: "header",
            required: false,
            schema: { type: "string" },
            description: "The project to act in (default: the one you last opened).",
          },
        ]
      : [];
  const parameters = [...params, ...project, ...queryParameters(c, d?.query)];
  if (parameters.length) op.parameters = parameters;
  if (d?.body) op.requestBody = { required: true, content: { "application/json": { schema: c.schema(d.body) } } };
  if (d?.upload) op.requestBody = { required: true, content: { "multipart/form-data": { schema: c.schema(d.upload) } } };
  const responses: Json = {};
  for (const [status, model] of Object.entries(d?.answers ?? {})) {
    const types = d?.produces ?? ["application/json"];
    responses[status] =
      model === null
        ? { description: "No content." }
        : { description: "The answer.", content: Object.fromEntries(types.map((t) => [t, { schema: c.schema(model) }])) };
  }
  responses.default = { $ref: "#/components/responses/Error" };
  op.responses = responses;
  return op;
}

/** The management API's document, from the app's routes. */
export function managementDocument(routes: readonly RouteRow[], serverUrl: string): Json {
  const c = new Components();
  const paths: Record<string, Json> = {};
  const rows = routes.filter(isManagementRoute).sort((a, b) => a.path.localeCompare(b.path));
  for (const r of rows) {
    const path = openApiPath(r.path);
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = operation(c, r.method, path, r.hooks?.detail ?? {});
  }
  const error = c.schema(ManagementError);
  return {
    openapi: "3.1.0",
    info: {
      title: "Capa management API",
      version: "v2",
      description:
        "Manages a project: models, entries, media, scheduling, workspaces, layouts, field changes, keys, webhooks, people and projects. " +
        "People send `Authorization: Bearer <token>` from `POST /v2/user/login`; legacy keys call the `/v2/agent/` mount with `x-api-key`. " +
        "`x-svc-project` chooses the project of one request.",
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: c.schemas,
      responses: { Error: { description: "A refusal: the /v2 error body.", content: { "application/json": { schema: error } } } },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        agentKey: { type: "apiKey", in: "header", name: "x-api-key" },
      },
    },
  };
}
