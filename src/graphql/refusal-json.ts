// interface.md, "GraphQL errors": a catalogue error as a GraphQL error object, and the body of a
// whole-request refusal (`errors`, no `data`). No graphql-js here: the guard renders refusals of
// /api/graphql made before routing (edge, host, method) with it, and graphql-js loads only on the
// first GraphQL request (engine.ts).
import { type AppError, CATALOGUE, type CatalogueEntry, docsUrl } from "../errors.ts";
import { LIMITS } from "./limit-values.ts";
import type { Measures } from "./limits.ts";

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
