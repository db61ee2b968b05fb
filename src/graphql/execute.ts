// interface.md, "GraphQL behaviour" and "GraphQL errors": one request from parameters to answer.
// Sizes and nesting are checked on the text, the document is parsed and validated (cached per
// schema), limits are measured, every root field becomes its entries read (run together), and
// the answer is assembled by graphql-js from the reads' data.
import {
  execute,
  GraphQLError,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type OperationDefinitionNode,
} from "graphql";
import { LRUCache } from "lru-cache";
import { collectFields } from "graphql/execution/collectFields.js";
import { getVariableValues } from "graphql/execution/values.js";
import { AppError, CATALOGUE, docsUrl, fail, type CatalogueEntry } from "../errors.ts";
import type { Services } from "../services.ts";
import type { ProjectHandle } from "../storage/pool.ts";
import type { ReadJob, ReadOutcome } from "../domain/reads/job.ts";
import { keyInfo } from "../domain/keys/info.ts";
import type { ApiCall } from "../http/plugins/keyed.ts";
import { checkNesting, checkSize, emptyMeasures, LIMITS, measure, type Measures } from "./limits.ts";
import { checkHash, lookupPersisted, persistedRef, storePersisted } from "./persisted.ts";
import type { Built, RootInfo } from "./schema.ts";
import { planRoot, restUrl, type RootPlan, type TranslateContext } from "./translate.ts";

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
}

type Json = Record<string, unknown>;

const VALIDATION_HINT = "Check the document against the schema; introspection works for every key.";
const NAME_HINT = CATALOGUE.graphql_validation_failed.hint;

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

function costOf(m: Measures | null, actual: number): Json {
  return {
    requestedQueryCost: m?.requested ?? 0,
    actualQueryCost: actual,
    budget: { counted: m?.counted ?? 0, limit: LIMITS.budget },
  };
}

/** A whole-request refusal: `errors` and no `data`, with the error's status. */
export function refusal(errs: AppError[] | AppError, docsBase: string, m: Measures | null = null, gqlErrors?: readonly GraphQLError[]): GraphqlAnswer {
  const list = Array.isArray(errs) ? errs : [errs];
  const errors = gqlErrors
    ? gqlErrors.map((g, i) => errorJson(list[i] ?? list[0]!, docsBase, { locations: g.locations }))
    : list.map((e) => errorJson(e, docsBase));
  return {
    status: list[0]!.status,
    body: { errors, extensions: { cost: costOf(m, 0) } },
    cacheable: false,
    models: [],
    entryIds: [],
    headers: list[0]!.headers,
  };
}

interface Prepared {
  document: DocumentNode;
  /** Validation errors of the document against the schema (empty when valid). */
  errors: readonly GraphQLError[];
  /** Planned runs by operation name and variables. */
  plans: LRUCache<string, Planned>;
}

/** A root field of a planned run. */
type PlannedRoot =
  | { key: string; kind: "version" | "me" }
  | { key: string; kind: "plan"; plan: RootPlan }
  | { key: string; kind: "error"; error: AppError }
  /** entry, node and nodes look their ids up, so they are planned per request. */
  | { key: string; kind: "lookup"; def: GraphQLField<unknown, unknown>; nodes: readonly FieldNode[] };

/**
 * What one operation with one set of variables asks for: measured and translated once, since
 * both depend only on the schema, the document and the variables.
 */
interface Planned {
  op: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  measures: Measures;
  roots: PlannedRoot[];
}

/** Parses and validates a document once per schema. */
function prepare(built: Built, query: string): Prepared {
  let p = built.documents.get(query) as Prepared | AppError | undefined;
  if (!p) {
    try {
      const document = parse(query, { maxTokens: LIMITS.documentBytes });
      p = { document, errors: validate(built.schema, document), plans: new LRUCache({ max: 32 }) };
    } catch (e) {
      if (!(e instanceof GraphQLError)) throw e;
      p = new AppError("graphql_validation_failed", { message: e.message, hint: VALIDATION_HINT });
    }
    built.documents.set(query, p);
  }
  if (p instanceof AppError) throw p;
  return p;
}

/** Picks the operation: several only when every one is named and operationName picks one. */
function pickOperation(document: DocumentNode, name: string | null): OperationDefinitionNode {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const bad = (message: string, hint = NAME_HINT): never => fail("graphql_validation_failed", { message, hint });
  if (ops.length === 0) bad("The document has no operation.", VALIDATION_HINT);
  if (ops.length > 1 && ops.some((o) => !o.name)) bad(`The document has ${ops.length} operations and not every one is named.`);
  if (name !== null) {
    const op = ops.find((o) => o.name?.value === name);
    return op ?? bad(`The document has no operation named "${name}".`);
  }
  if (ops.length > 1) bad(`The document has ${ops.length} operations; pick one with operationName.`);
  return ops[0]!;
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
    if (op.operation === "mutation") fail("mutations_not_enabled", { message: "Mutations are not enabled; GraphQL on /api only reads." });
    if (op.operation === "subscription") fail("graphql_validation_failed", { message: "Subscriptions are not supported.", hint: VALIDATION_HINT });
    if (prepared.errors.length) {
      return refusal(
        prepared.errors.map((e) => new AppError("graphql_validation_failed", { message: e.message, hint: VALIDATION_HINT })),
        docsBase,
        null,
        prepared.errors,
      );
    }
    const planKey = `${op.name?.value ?? ""}\n${JSON.stringify(p.variables ?? {})}`;
    let planned = prepared.plans.get(planKey);
    if (!planned) {
      const coerced = getVariableValues(built.schema, op.variableDefinitions ?? [], p.variables ?? {}, { maxErrors: 25 });
      if (coerced.errors) {
        return refusal(
          coerced.errors.map((e) => new AppError("graphql_validation_failed", { message: e.message, hint: VALIDATION_HINT })),
          docsBase,
          null,
          coerced.errors,
        );
      }
      const fragments: Record<string, FragmentDefinitionNode> = {};
      for (const d of prepared.document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
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

/** Translates each root field (those that look ids up are left for each request). */
function plan(
  env: GraphqlEnv,
  op: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  measures: Measures,
): Planned {
  const { built } = env;
  const query = built.schema.getQueryType()!;
  const ctx: TranslateContext = { built, h: env.h, fragments, variables };
  const roots: PlannedRoot[] = [];
  for (const [key, nodes] of collectFields(built.schema, fragments, variables, query, op.selectionSet)) {
    const name = nodes[0]!.name.value;
    if (name.startsWith("__")) continue;
    const def = query.getFields()[name] as GraphQLField<unknown, unknown>;
    const info = def.extensions.capa as RootInfo;
    if (info.kind === "version" || info.kind === "me") roots.push({ key, kind: info.kind });
    else if (info.kind === "entry" || info.kind === "node" || info.kind === "nodes") roots.push({ key, kind: "lookup", def, nodes });
    else {
      try {
        roots.push({ key, kind: "plan", plan: planRoot(ctx, def, nodes) });
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        roots.push({ key, kind: "error", error: e });
      }
    }
  }
  return { op, fragments, variables, measures, roots };
}

async function answer(env: GraphqlEnv, p: GraphqlParams, document: DocumentNode, planned: Planned): Promise<GraphqlAnswer> {
  const { built, call } = env;
  const { op, measures } = planned;
  const ctx: TranslateContext = { built, h: env.h, fragments: planned.fragments, variables: planned.variables };
  const root: Json = {};
  const toRun: { key: string; plan: RootPlan }[] = [];
  for (const r of planned.roots) {
    if (r.kind === "version") root[r.key] = call.version;
    else if (r.kind === "me") {
      const k = keyInfo(env.s, call.key, call.version, call.lastUsedBefore);
      root[r.key] = { ...k, models: k.models.map((m) => ({ ...m, typeName: built.byId.get(m.id)?.names.type ?? null })) };
    } else if (r.kind === "error") root[r.key] = r.error;
    else if (r.kind === "plan") toRun.push({ key: r.key, plan: r.plan });
    else if (r.kind === "lookup") {
      try {
        toRun.push({ key: r.key, plan: planRoot(ctx, r.def, r.nodes) });
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        root[r.key] = e;
      }
    }
  }

  // Every read of every root field runs together; a read that fails fails its root field only.
  const rest: { field: string; url: string }[] = [];
  const jobs: Promise<ReadOutcome>[] = [];
  const key = call.key;
  const grants = key.readGrants;
  for (const { key: field, plan } of toRun) {
    for (const r of plan.reads) {
      rest.push({ field, url: restUrl(r) });
      jobs.push(
        env.run({
          projectId: env.h.id,
          ns: r.ns,
          id: r.id,
          search: r.search,
          production: key.row.environment === "production",
          preview: env.preview,
          grants,
          graphql: true,
          mediaBase: env.s.config.mediaBaseUrl,
        }),
      );
    }
  }
  let outcomes: PromiseSettledResult<ReadOutcome>[] = [];
  if (jobs.length) {
    const release = env.acquire();
    try {
      outcomes = await Promise.allSettled(jobs);
    } finally {
      release();
    }
  }
  const missing = new Set<string>();
  const models = new Set<string>();
  const entryIds = new Set<string>();
  let i = 0;
  for (const { key: field, plan } of toRun) {
    const mine = outcomes.slice(i, i + plan.reads.length);
    i += plan.reads.length;
    const failed = mine.find((o) => o.status === "rejected");
    if (failed) {
      const reason = (failed as PromiseRejectedResult).reason;
      if (!(reason instanceof AppError)) throw reason;
      root[field] = reason;
      continue;
    }
    const oks = mine.map((o) => (o as PromiseFulfilledResult<ReadOutcome>).value);
    for (const o of oks) {
      if (!o.ok) continue;
      for (const x of o.missingReferences) missing.add(x);
      for (const x of o.models) models.add(x);
      for (const x of o.entryIds) entryIds.add(x);
    }
    try {
      root[field] = plan.finish(oks);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      root[field] = e;
    }
  }

  const exec: ExecContext = { actual: 0 };
  const result = execute({
    schema: built.schema,
    document,
    rootValue: root,
    contextValue: exec,
    variableValues: p.variables ?? {},
    operationName: op.name?.value,
  }) as ExecutionResult;
  const body: Json = { data: result.data ?? null };
  // Key information differs per key, so an answer holding it is never shared.
  let cacheable = !planned.roots.some((r) => r.kind === "me");
  if (result.errors?.length) {
    cacheable = false;
    body.errors = result.errors.map((g) => {
      const orig = g.originalError;
      const err = orig instanceof AppError ? orig : internal(env, g);
      return errorJson(err, env.docsBase, { locations: g.locations, path: g.path });
    });
  }
  const extensions: Json = { cost: costOf(measures, exec.actual) };
  if (missing.size) extensions.missingReferences = [...missing];
  const svc = p.extensions?.svc === true;
  if (svc) {
    cacheable = false;
    extensions.svc = {
      requestId: call.info.id,
      version: call.version,
      contract: 1,
      environment: key.row.environment,
      cost: {
        depth: measures.depth,
        rootFields: measures.rootFields,
        connections: measures.connections,
        nodesBound: measures.requested,
        scans: rest.length,
        nodes: exec.actual,
        fields: measures.fields,
      },
      rest,
    };
  }
  body.extensions = extensions;
  return { status: 200, body, cacheable: cacheable && env.preview === null, models: [...models], entryIds: [...entryIds], rest };
}

/** An error that is not a catalogue error: logged, and shown without detail. */
function internal(env: GraphqlEnv, g: GraphQLError): AppError {
  env.s.log.error("graphql field failed", { requestId: env.call.info.id, path: g.path?.join("."), error: String(g.originalError?.stack ?? g.message) });
  return new AppError("internal");
}
