// One planned run becomes an answer: every root field's entries reads run together (a read that
// fails fails its root field only), graphql-js then assembles `data` from the reads' values, and
// the answer gets its errors, its cost and, when asked for with `extensions.svc`, what it ran.
import { execute, type DocumentNode, type ExecutionResult } from "graphql";
import { AppError } from "../errors.ts";
import type { ReadOutcome } from "../domain/reads/job.ts";
import { keyInfo } from "../domain/keys/info.ts";
import { costOf, errorJson, internal } from "./error-render.ts";
import type { ExecContext, GraphqlAnswer, GraphqlEnv, GraphqlParams } from "./execute.ts";
import type { Planned } from "./plan.ts";
import { restUrl } from "./rest-read.ts";
import { planRoot, type RootPlan, type TranslateContext } from "./translate.ts";

type Json = Record<string, unknown>;

/** The root value graphql-js executes against, and what the reads behind it touched. */
interface RootValues {
  root: Json;
  /** The REST reads the root fields became (recorded for Svc-Page). */
  rest: { field: string; url: string }[];
  models: Set<string>;
  entryIds: Set<string>;
}

/** Values each root field: fixed ones at once, the rest by their entries reads, run together. */
async function readRoots(env: GraphqlEnv, planned: Planned): Promise<RootValues> {
  const { built, call } = env;
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
          args: r.args,
          production: key.row.environment === "production",
          preview: env.preview,
          grants,
          graphql: true,
          rowCursors: r.rowCursors === true,
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
    // Every model a root field read is tagged, found or not: an id that is not published yet
    // answers null, and its publish purges the model (decisions.md 14).
    for (const r of plan.reads) models.add(r.ns);
    for (const o of oks) {
      // The reads' missingReferences cover every stored id they expanded; the resolvers name
      // only those of the objects and fields the answer holds (ExecContext.missing).
      if (!o.ok) continue;
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
  return { root, rest, models, entryIds };
}

/** Runs a planned operation and assembles its answer. */
export async function answer(env: GraphqlEnv, p: GraphqlParams, document: DocumentNode, planned: Planned): Promise<GraphqlAnswer> {
  const { built, call } = env;
  const { op, measures } = planned;
  const { root, rest, models, entryIds } = await readRoots(env, planned);
  const key = call.key;

  // The direct path first (direct.ts); graphql-js when it gives up, with a fresh context.
  let exec: ExecContext = { actual: 0, missing: new Set() };
  const data = planned.direct?.(root, exec) ?? null;
  let result: ExecutionResult;
  if (data !== null) result = { data };
  else {
    exec = { actual: 0, missing: new Set() };
    result = execute({
      schema: built.schema,
      document,
      rootValue: root,
      contextValue: exec,
      variableValues: p.variables ?? {},
      operationName: op.name?.value,
    }) as ExecutionResult;
  }
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
  if (exec.missing.size) extensions.missingReferences = [...exec.missing];
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
