// What a /v2 route declares about itself for GET /v2/openapi.json, in the route's `detail`: its
// summary, the TypeBox model its body is checked with (the very object handed to typedBody), the
// query it reads and its answers by status. The management macros add who may call it
// (src/http/plugins/management.ts). The document is built from the app's own route table, so a
// route is documented where it is written (src/http/openapi/management.ts).
import type { TSchema } from "@sinclair/typebox";

/** The key of a route's `detail` that holds its RouteDoc. */
export const ROUTE_DOC = "x-capa-doc";

/** The key of a route's `detail` that the management macros fill with who may call it. */
export const ROUTE_AUTH = "x-capa-auth";

/** Who may call a management route: a scope (people or agent keys), a person only, or anyone signed in. */
export interface RouteAuth {
  kind: "scope" | "person" | "signedIn";
  scope?: string;
}

export interface RouteDoc {
  summary: string;
  /** The JSON body's model: the object the handler passes to typedBody. */
  body?: TSchema;
  /** A multipart upload (`POST /v2/media`), read by its own streaming reader. */
  upload?: TSchema;
  /** The query parameters, as an object of optional strings. */
  query?: TSchema;
  /** The media types of the answers, when not JSON alone (an export's CSV and JSON). */
  produces?: string[];
  /** The answer's model by status; null for an answer without a body (204). */
  answers: Record<number, TSchema | null>;
}

/** The `detail` of a documented route. */
export function doc(d: RouteDoc): Record<string, unknown> {
  return { [ROUTE_DOC]: d };
}

/** The `detail` the management macros add: who may call the route. */
export function authDetail(auth: RouteAuth): Record<string, unknown> {
  return { [ROUTE_AUTH]: auth };
}
