// interface.md, "GraphQL behaviour" and "GraphQL errors": one request from parameters to answer.
// Sizes and nesting are checked on the text, the document is parsed and validated (cached per
// schema), limits are measured, every root field becomes its entries read (run together), and
// the answer is assembled by graphql-js from the reads' data. The steps live beside this file:
// plan.ts (parse, validate, measure, translate: cached), answer.ts (the reads and the answer),
// error-render.ts (errors and refusals as GraphQL renders them), persisted.ts (persisted queries).
import { getVariableValues } from "graphql/execution/values.js";
import { AppError, fail } from "../errors.ts";
import type { Services } from "../services.ts";
import type { ProjectHandle } from "../storage/pool.ts";
import type { ReadJob, ReadOutcome } from "../domain/reads/job.ts";
import type { ApiCall } from "../http/plugins/keyed.ts";
import { checkNesting, checkSize, emptyMeasures, LIMITS, measure, type Measures } from "./limits.ts";
import { checkHash, lookupPersisted, persistedRef, storePersisted } from "./persisted.ts";
import type { Built } from "./schema.ts";
import { answer } from "./answer.ts";
import { GRAPHQL_ALLOW, refusal, VALIDATION_HINT, validationRefusal } from "./error-render.ts";
import { fragmentsOf, pickOperation, plan, prepare } from "./plan.ts";

/** A GraphQL request's parameters, from a POST body or a GET query string. */
export interface GraphqlParams {
  query: string | null;
  variables: Record<string, unknown> | null;
  /** The size of the variables as sent (JSON text). */
  variablesBytes: number;
  operationName: string | null;
  extensions: Record<string, unknown> | null;
}

/** What a request runs with. */
export interface GraphqlEnv {
  s: Services;
  call: ApiCall;
  h: ProjectHandle;
  built: Built;
  /** Runs one entries read (the read pool, or in process). */
  run(job: ReadJob): Promise<ReadOutcome>;
  /** The base URL of the per-code docs pages. */
  docsBase: string;
  /** Takes the in-flight slots of a read; returns their release. */
  acquire(): () => void;
  /** The drafts a `?preview=` token uncovers for a production key, or null. */
  preview: ReadJob["preview"];
}

/** The answer: HTTP status, JSON body, and what caching needs. */
export interface GraphqlAnswer {
  status: number;
  body: Record<string, unknown>;
  /** No errors and no per-request values: a production GET may cache it. */
  cacheable: boolean;
  /** Headers a refusal adds (Retry-After). */
  headers?: Record<string, string>;
  models: string[];
  entryIds: string[];
  /** The REST reads the root fields became (recorded for Svc-Page). */
  rest?: { field: string; url: string }[];
}

/** Per-execution state the resolvers update. */
export interface ExecContext {
  /** Entries returned so far (actualQueryCost). */
  actual: number;
  /** Ids the answer leaves out because they do not resolve, as the resolvers meet them (missingReferences). */
  missing: Set<string>;
}

/** Runs one GraphQL request. Never throws for client errors: they come back as the answer. */
export async function runGraphql(env: GraphqlEnv, p: GraphqlParams): Promise<GraphqlAnswer> {
  const { built, docsBase } = env;
  let measures: Measures | null = null;
  try {
    const ref = persistedRef(p.extensions);
    let query = p.query;
    let register = false;
    if (ref) {
      if (query === null) query = lookupPersisted(env.h, ref.hash, env.s.clock.now());
      else {
        checkHash(query, ref);
        register = true;
      }
    }
    if (query === null || query.trim() === "") {
      fail("invalid_parameter", { message: "Send the GraphQL document in query.", param: "query", hint: 'Example: { "query": "{ version }" }' });
    }
    checkSize("query document", Buffer.byteLength(query), LIMITS.documentBytes);
    checkSize("variables JSON", p.variablesBytes, LIMITS.variablesBytes);
    checkNesting("query document", query);
    const prepared = prepare(built, query);
    const op = pickOperation(prepared.document, p.operationName);
    if (op.operation === "mutation") {
      fail("mutations_not_enabled", { message: "Mutations are not enabled; GraphQL on /api only reads.", headers: { allow: GRAPHQL_ALLOW } });
    }
    if (op.operation === "subscription") fail("graphql_validation_failed", { message: "Subscriptions are not supported.", hint: VALIDATION_HINT });
    if (prepared.errors.length) return validationRefusal(prepared.errors, docsBase);
    const planKey = `${op.name?.value ?? ""}\n${JSON.stringify(p.variables ?? {})}`;
    let planned = prepared.plans.get(planKey);
    if (!planned) {
      const coerced = getVariableValues(built.schema, op.variableDefinitions ?? [], p.variables ?? {}, { maxErrors: 25 });
      if (coerced.errors) return validationRefusal(coerced.errors, docsBase);
      const fragments = fragmentsOf(prepared.document);
      measures = emptyMeasures();
      measure(built, op, fragments, coerced.coerced, measures);
      planned = plan(env, op, fragments, coerced.coerced, measures);
      prepared.plans.set(planKey, planned);
    }
    measures = planned.measures;
    if (register && ref) storePersisted(env.h, ref.hash, query, env.s.clock.now());
    return await answer(env, p, prepared.document, planned);
  } catch (e) {
    if (e instanceof AppError) return refusal(e, docsBase, measures);
    throw e;
  }
}
