// The types of the scheduled-action routes' answers (src/http/v2/scheduling.ts), made from their
// TypeBox models. Type-only.
import type { Static } from "@sinclair/typebox";
import type {
  ActionList,
  ActionPage as ActionPageModel,
  Batch as BatchModel,
  CancelledBatch as CancelledBatchModel,
  Defaults as DefaultsModel,
  Failures as FailuresModel,
  Rescheduled as RescheduledModel,
  Scheduled as ScheduledModel,
  ScheduledAction as ScheduledActionModel,
} from "../domain/scheduling/bodies.ts";

/** A scheduled publish or unpublish (interface.md, Scheduled action). */
export type ScheduledAction = Static<typeof ScheduledActionModel>;
export type ActionStatus = ScheduledAction["status"];

/** The server's reading of a wall time in a zone: the instant, its offset, and a DST note. */
export type Resolved = ScheduledAction["resolved"];

/** A new schedule or retry (201), and a batch moved to a new time. */
export type Scheduled = Static<typeof ScheduledModel>;
export type Rescheduled = Static<typeof RescheduledModel>;

/** A page of actions, an entry's actions, the recent failures, a batch and a cancelled batch. */
export type ActionPage = Static<typeof ActionPageModel>;
export type EntryActions = Static<typeof ActionList>;
export type Failures = Static<typeof FailuresModel>;
export type Batch = Static<typeof BatchModel>;
export type CancelledBatch = Static<typeof CancelledBatchModel>;

/** The project's publishing time zone (GET /v2/scheduled-actions/defaults). */
export type Defaults = Static<typeof DefaultsModel>;
