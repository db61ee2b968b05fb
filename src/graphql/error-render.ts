// interface.md, "GraphQL errors": how a catalogue error looks in a GraphQL answer (message,
// locations, path, and `extensions` with code, type, param, hint and docs), `extensions.cost`,
// and the whole-request refusal (`errors`, no `data`, the error's status). Kept apart from the
// run so the route can render a refusal of its own (the /api shell's) the same way. No
// graphql-js at run time here (its imports are types): the guard renders refusals of
// /api/graphql made before routing (edge, host, method) with it, and graphql-js loads only on
// the first GraphQL request (engine.ts).
import type { GraphQLError } from "graphql";
import { AppError, CATALOGUE, type CatalogueEntry, docsUrl } from "../errors.ts";
import { LIMITS } from "./limit-values.ts";
import type { Measures } from "./limits.ts";
import type { GraphqlAnswer, GraphqlEnv } from "./execute.ts";

type Json = Record<string, unknown>;

/** The methods /api/graphql answers; a 405 there carries them in `Allow` (decisions.md 12). */
export const GRAPHQL_ALLOW = "GET, POST, OPTIONS";

/** A GraphQL error object for a catalogue error, with its location and path when it has them. */
export function errorJson(err: AppError, docsBase: string, at?: { locations?: readonly unknown[]; path?: readonly (string | number)[] }): Json {
  const entry: CatalogueEntry = CATALOGUE[err.code];
  const o: Json = { message: err.message };
  if (at?.locations?.length) o.locations = at.locations;
  if (at?.path) o.path = at.path;
  const ext: Json = { code: err.code, type: entry.type };
  if (err.param !== undefined) ext.param = err.param;
  if (err.hint !== undefined) ext.hint = err.hint;
  ext.docs = docsUrl(docsBase, err.code);
  o.extensions = ext;
  return o;
}

/** `extensions.cost`: on every answer, refusals included (with what was measured before the refusal). */
export function costOf(m: Measures | null, actual: number): Json {
  return {
    requestedQueryCost: m?.requested ?? 0,
    actualQueryCost: actual,
    budget: { counted: m?.counted ?? 0, limit: LIMITS.budget },
  };
}

/** The body of a whole-request refusal: its errors and the cost measured before it. */
export function refusalBody(errors: Json[], m: Measures | null = null): Json {
  return { errors, extensions: { cost: costOf(m, 0) } };
}

/** The hint of every graphql_validation_failed that graphql-js found (parse, validate, variables). */
export const VALIDATION_HINT = "Check the document against the schema; introspection works for every key.";

/** A whole-request refusal: `errors` and no `data`, with the error's status. */
export function refusal(errs: AppError[] | AppError, docsBase: string, m: Measures | null = null, gqlErrors?: readonly GraphQLError[]): GraphqlAnswer {
  const list = Array.isArray(errs) ? errs : [errs];
  const errors = gqlErrors
    ? gqlErrors.map((g, i) => errorJson(list[i] ?? list[0]!, docsBase, { locations: g.locations }))
    : list.map((e) => errorJson(e, docsBase));
  return {
    status: list[0]!.status,
    body: refusalBody(errors, m),
    cacheable: false,
    models: [],
    entryIds: [],
    headers: list[0]!.headers,
  };
}

/** The refusal of a document graphql-js found fault with (validation, variables): one error each, at its location. */
export function validationRefusal(gqlErrors: readonly GraphQLError[], docsBase: string): GraphqlAnswer {
  return refusal(
    gqlErrors.map((e) => new AppError("graphql_validation_failed", { message: e.message, hint: VALIDATION_HINT })),
    docsBase,
    null,
    gqlErrors,
  );
}

/** An error that is not a catalogue error: logged, and shown without detail. */
export function internal(env: GraphqlEnv, g: GraphQLError): AppError {
  env.s.log.error("graphql field failed", { requestId: env.call.info.id, path: g.path?.join("."), error: String(g.originalError?.stack ?? g.message) });
  return new AppError("internal");
}
