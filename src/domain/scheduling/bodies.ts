// TypeBox models of the scheduling bodies and answers (interface.md, Scheduled publishing;
// decisions.md 7). The domain adds what a shape cannot say: each target is an entry or model of
// this project (named once), the wall time is a real time of the zone at least 60 seconds ahead,
// the zone is a known IANA zone, a versionId belongs to the one entry target.
import { type TProperties, Type } from "@sinclair/typebox";
import { listOf, nullable, oneOf, record, Time, Uuid } from "../access/schema-kit.ts";
import { Locales } from "../entries/bodies.ts";

const MAX_TARGETS = 500;

/**
 * Refuses keys a request does not take, naming the ones it does (`named`: those the sentence
 * names, when a later optional key such as `locales` is left out of it so the sentence stays as
 * clients have always read it).
 */
const only = <P extends TProperties>(props: P, $id: string, named: string[] = Object.keys(props)) =>
  Type.Object(props, { $id, additionalProperties: false, unknown: `{field} is not a field of this request; send ${named.join(", ")}` });

/** `YYYY-MM-DDTHH:mm[:ss]`, no offset: a time on the zone's clock. */
export const WallTime = Type.String({
  pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?$",
  error: "{field} must be a local time like 2026-03-29T09:00 or 2026-03-29T09:00:30, with no offset",
});

/** An IANA zone name (a bare offset has no daylight-saving rules). */
export const Zone = Type.String({ minLength: 1, maxLength: 64, pattern: "^[^+-]", error: "{field} must be an IANA time zone name such as Europe/Berlin" });

/** A zone, or null (or absent) for the default: the project's zone, or the action's own. */
export const ZoneOrDefault = Type.Union([Type.Null(), Zone], { error: "{field} must be an IANA time zone name such as Europe/Berlin" });

const Target = Type.Object(
  {
    type: Type.Union([Type.Literal("instance"), Type.Literal("model")], { error: "{field} must be instance (an entry) or model" }),
    id: Type.String({ minLength: 1, error: "{field} must be an entry id or a model id" }),
  },
  { error: "{field} must be an object { type, id }" },
);

/** POST /v2/scheduled-actions. */
export const ScheduleBody = only(
  {
    action: Type.Union([Type.Literal("publish"), Type.Literal("unpublish")], { error: "action must be publish or unpublish" }),
    targets: Type.Array(Target, {
      minItems: 1,
      maxItems: MAX_TARGETS,
      error: `targets must list 1 to ${MAX_TARGETS} items of { type, id }`,
      count: `targets must list 1 to ${MAX_TARGETS} items of { type, id }; it lists {length}`,
    }),
    wallTime: WallTime,
    timezone: Type.Optional(ZoneOrDefault),
    versionId: Type.Optional(
      Type.Union([Type.Null(), Type.String({ pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$" })], {
        error: "versionId must be a version id (UUID)",
        description: "Publish this version of the one entry target, not the latest draft at run time.",
      }),
    ),
    locales: Type.Optional(
      Type.Union([Type.Null(), Locales], {
        error: Locales.error,
        description: "The locales each entry target publishes or unpublishes (decisions.md 13); default as publishing now.",
      }),
    ),
  },
  "ScheduleBody",
  ["action", "targets", "wallTime", "timezone", "versionId"],
);

/** PATCH /v2/scheduled-actions/:id and /batch/:batchId: a new time (the zone defaults to the action's). */
export const RescheduleBody = only({ wallTime: WallTime, timezone: Type.Optional(ZoneOrDefault) }, "RescheduleBody");

/** POST /v2/scheduled-actions/:id/retry: run again now, or at a new time. */
export const RetryBody = only({ wallTime: Type.Optional(WallTime), timezone: Type.Optional(ZoneOrDefault) }, "RetryBody");

/** PUT /v2/scheduled-actions/defaults: the project's publishing time zone, or null to clear it. */
export const DefaultsBody = only(
  {
    timezone: Type.Union([Type.Null(), Zone], {
      error: "{field} must be an IANA time zone name such as Europe/Berlin",
      missing: "timezone is required (an IANA zone name, or null to clear it)",
    }),
  },
  "DefaultsBody",
);

/** A body only an Idempotency-Key compares (cancel, unpublish): any JSON object, or none. */
export const AnyBody = Type.Object({}, { $id: "AnyBody", description: "Ignored, except that a repeated Idempotency-Key must come with the same body." });

const Resolved = record({ at: Time, offset: Type.String(), note: Type.Optional(Type.String({ description: "Set when daylight saving moved the time." })) });
const Counts = Type.Record(Type.String(), Type.Integer());

export const ScheduledAction = record(
  {
    id: Uuid,
    action: oneOf(["publish", "unpublish"]),
    targets: Type.Array(record({ type: oneOf(["instance", "model"]), id: Uuid })),
    wallTime: Type.String(),
    timezone: Type.String(),
    versionId: nullable(Uuid),
    locales: Type.Optional(Type.Array(Type.String(), { description: "Present when the action names its locales." })),
    batchId: Uuid,
    resolved: Resolved,
    replaced: Type.Array(Uuid),
    replacedBy: nullable(Uuid),
    status: oneOf(["pending", "running", "done", "failed", "dead", "cancelled"]),
    attempts: Type.Integer(),
    nextAttemptAt: nullable(Time),
    lastError: nullable(Type.String()),
    lastErrors: nullable(
      Type.Array(record({ entryId: Uuid, field: Type.String(), rule: Type.String(), message: Type.String() }), {
        description: "The rules the target broke when the last run failed validation (that failure is not retried automatically).",
      }),
    ),
    lastFailedAt: nullable(Time),
    retryOf: nullable(Uuid),
    createdAt: Time,
    createdBy: record({ kind: Type.String(), id: Type.Optional(Type.String()) }),
    updatedAt: Time,
    finishedAt: nullable(Time),
  },
  { $id: "ScheduledAction" },
);

export const Scheduled = record({ batchId: Uuid, resolved: Resolved, actions: Type.Array(ScheduledAction), replaced: Type.Array(Uuid) }, { $id: "Scheduled" });
export const Rescheduled = record({ batchId: Uuid, resolved: Resolved, actions: Type.Array(ScheduledAction) });
/** An action's target in words, as the list adds it with `expand=target` (targets.ts). */
const ShownTarget = record({
  type: oneOf(["instance", "model"]),
  id: Uuid,
  modelId: nullable(Uuid),
  namespace: nullable(Type.String()),
  title: nullable(Type.String()),
  missing: Type.Boolean(),
});
export const ActionPage = listOf(
  Type.Composite([ScheduledAction, Type.Object({ target: Type.Optional(ShownTarget) })], {
    description: "A scheduled action; with expand=target, also its target in words.",
  }),
  { page: Type.Integer(), limit: Type.Integer(), total: Type.Integer() },
);
export const ActionList = listOf(ScheduledAction);
export const Batch = record({ batchId: Uuid, total: Type.Integer(), counts: Counts, actions: Type.Array(ScheduledAction) });
export const CancelledBatch = record({ batchId: Uuid, cancelled: Type.Array(Uuid), counts: Counts, actions: Type.Array(ScheduledAction) });
export const Failures = record({ count: Type.Integer(), since: Time, latest: nullable(ScheduledAction) });
export const Defaults = record({ timezone: nullable(Type.String()) });

export const ActionQuery = Type.Object({
  status: Type.Optional(Type.String({ description: "One or more statuses, comma-separated." })),
  targetId: Type.Optional(Type.String()),
  batchId: Type.Optional(Type.String()),
  from: Type.Optional(Type.String({ description: "ISO 8601: run time from." })),
  to: Type.Optional(Type.String({ description: "ISO 8601: run time to." })),
  order: Type.Optional(Type.String({ enum: ["asc", "desc"] })),
  expand: Type.Optional(Type.String({ enum: ["target"] })),
  page: Type.Optional(Type.String()),
  limit: Type.Optional(Type.String({ description: "Up to 200." })),
});
