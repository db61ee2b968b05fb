// interface.md, "GraphQL errors": how a catalogue error looks in a GraphQL answer (message,
// locations, path, and `extensions` with code, type, param, hint and docs), and the
// whole-request refusal (`errors`, no `data`, the error's status). Kept apart from the run so
// the route can render a refusal of its own (the /api shell's) the same way.
import type { GraphQLError } from "graphql";
import { AppError } from "../errors.ts";
import type { Measures } from "./limits.ts";
import type { GraphqlAnswer, GraphqlEnv } from "./execute.ts";
import { costOf, errorJson, refusalBody } from "./refusal-json.ts";

export { costOf, errorJson };

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
