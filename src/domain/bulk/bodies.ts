// TypeBox models of the bulk bodies and answers (interface.md, Bulk publish and unpublish;
// decisions.md 7). The domain adds what a shape cannot say: the ids name entries of this project,
// entries are named one way (ids, or a model with a filter), the filter is the /api grammar.
import { Type } from "@sinclair/typebox";
import { Locales, RuleErrors } from "../entries/bodies.ts";
import { keyed, nullable, oneOf, record, Time, Uuid, UUID_PATTERN } from "../access/schema-kit.ts";
import { WallTime, ZoneOrDefault } from "../scheduling/bodies.ts";

/** Ids a request may name; a larger selection is made with a model and a filter. */
export const MAX_IDS = 10_000;

/** How a bulk request names its entries: by ids, or by a model with the list's where, q and status. */
const SELECTION = {
  instanceIds: Type.Optional(
    Type.Array(Type.String({ pattern: UUID_PATTERN, error: "{field} must be an entry id (UUID)" }), {
      minItems: 1,
      maxItems: MAX_IDS,
      error: `instanceIds must list 1 to ${MAX_IDS} entry ids`,
    }),
  ),
  modelId: Type.Optional(Type.String({ minLength: 1, error: "modelId must be a model id or namespace" })),
  where: Type.Optional(Type.Unknown({ description: "A filter in the /api `where` grammar: a JSON object, or its JSON text." })),
  filter: Type.Optional(Type.Unknown({ description: "The same as where (send one of them)." })),
  q: Type.Optional(Type.String({ description: "Search text as the entry list's q (the model's title and text fields)." })),
  status: Type.Optional(Type.String({ description: "draft, published or changed, as the entry list's status." })),
  dryRun: Type.Optional(Type.Boolean({ error: "dryRun must be true or false" })),
  expectedCount: Type.Optional(Type.Integer({ minimum: 0, error: "expectedCount must be a whole number from 0" })),
};

/**
 * The locales each selected entry publishes or unpublishes (decisions.md 13). Left out of the
 * refusal sentences of unknown keys, which stay as clients have read them.
 */
const LOCALES = Type.Optional(
  Type.Union([Type.Null(), Locales], {
    error: Locales.error,
    description: "The locales each entry publishes or unpublishes (decisions.md 13); default as publishing now. Not taken by bulk-delete.",
  }),
);

/** POST /v2/model-instances/bulk-publish, bulk-unpublish and bulk-delete. */
export const BulkBody = Type.Object(
  { ...SELECTION, locales: LOCALES },
  {
    $id: "BulkBody",
    additionalProperties: false,
    unknown: "{field} is not a field of a bulk request; send instanceIds or modelId with where, q and status, and optionally dryRun and expectedCount",
  },
);

/** POST /v2/model-instances/bulk-schedule: the same selection, and when. */
export const BulkScheduleBody = Type.Object(
  {
    ...SELECTION,
    locales: LOCALES,
    action: Type.Union([Type.Literal("publish"), Type.Literal("unpublish")], { error: "action must be publish or unpublish" }),
    wallTime: WallTime,
    timezone: Type.Optional(ZoneOrDefault),
  },
  {
    $id: "BulkScheduleBody",
    additionalProperties: false,
    unknown:
      "{field} is not a field of a bulk schedule; send action, wallTime, timezone, and instanceIds or modelId with where, q and status, and optionally dryRun and expectedCount",
  },
);

const Counts = Type.Record(Type.String(), Type.Integer());
export const BulkAnswer = Type.Union(
  [
    record({
      dryRun: Type.Literal(true),
      action: Type.String(),
      count: Type.Integer(),
      ids: Type.Array(Uuid),
      failures: Type.Array(record({ id: Uuid, errors: RuleErrors }), { description: "Publish: the entries whose draft breaks a rule, and the rules." }),
    }),
    record({
      action: Type.String(),
      count: Type.Integer(),
      counts: Counts,
      results: Type.Array(record({ id: Uuid, result: Type.String(), error: Type.Optional(Type.String()), errors: Type.Optional(RuleErrors) })),
    }),
  ],
  { $id: "BulkAnswer", description: "A dry run, or the results of up to 50 entries done inside the request." },
);
export const BulkQueued = record({ batchId: Uuid, count: Type.Integer(), poll: Type.String() }, { $id: "BulkQueued" });
export const BulkBatch = record(
  {
    batchId: Uuid,
    action: Type.String(),
    status: oneOf(["queued", "running", "done"]),
    total: Type.Integer(),
    counts: record({ done: Type.Integer(), skipped: Type.Integer(), failed: Type.Integer(), remaining: Type.Integer() }),
    failures: Type.Array(record({ id: Uuid, error: nullable(Type.String()), errors: Type.Optional(RuleErrors) })),
    selection: keyed({ description: "What the request selected: the ids, or the model and its filter." }),
    createdAt: Time,
    createdBy: record({ kind: Type.String(), id: Type.Optional(Type.String()) }),
    startedAt: nullable(Time),
    finishedAt: nullable(Time),
    poll: Type.String(),
  },
  { $id: "BulkBatch" },
);

export const BulkScheduled = Type.Union(
  [
    record({ dryRun: Type.Literal(true), action: Type.String(), count: Type.Integer(), ids: Type.Array(Uuid) }),
    record({
      action: Type.String(),
      count: Type.Integer({ description: "Actions made: one per selected entry." }),
      batchId: Uuid,
      resolved: record({ at: Time, offset: Type.String(), note: Type.Optional(Type.String()) }),
      replaced: Type.Integer({ description: "Active actions of the same kind cancelled because their entry got a new one." }),
      batch: Type.String({ description: "GET it for the batch's actions and a count per status." }),
    }),
  ],
  { $id: "BulkScheduled", description: "A dry run, or the scheduled batch." },
);
