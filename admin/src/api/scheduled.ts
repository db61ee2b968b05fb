// The scheduled-action routes of /v2 (interface.md, Scheduled publishing; docs/publishing.md),
// used only by the lazily loaded Scheduled screens. The entry editor's Schedule card keeps its
// own few calls in client.ts.
import type {
  ActionPage,
  ActionStatus,
  Batch,
  CancelledBatch,
  Defaults,
  Failures,
  Rescheduled,
  Scheduled,
  ScheduledAction,
} from "../../../src/shared/scheduling.ts";
import type { RescheduleBody } from "../../../src/shared/bodies.ts";
import { call } from "./client.ts";

/** Every status of a scheduled action, in the order of its life. */
export const ACTION_STATUSES = ["pending", "running", "done", "failed", "dead", "cancelled"] as const satisfies readonly ActionStatus[];
export type { ActionStatus };

/** The word shown for each status, beside its colour. */
export const ACTION_STATUS_WORDS: Record<ActionStatus, string> = {
  pending: "Pending",
  running: "Running",
  done: "Done",
  failed: "Failed",
  dead: "Dead",
  cancelled: "Cancelled",
};

/** The word of each action. */
export const ACTION_WORDS = { publish: "Publish", unpublish: "Unpublish" } as const;

/** A scheduled action as the list answers it with `expand=target` (the other routes leave `target` out). */
export type Action = ActionPage["data"][number];
export type { ActionPage, Batch, Failures };

/** The filters of the list, as the route takes them. */
export interface ActionFilter {
  status?: string;
  batchId?: string;
  from?: string;
  to?: string;
  page?: number;
  limit?: number;
}

/** The query keys of the scheduled screens; every write invalidates `all(project)`. */
export const scheduledKeys = {
  all: (p: string) => ["scheduled-actions", p] as const,
  list: (p: string, f: ActionFilter) => ["scheduled-actions", p, "list", f] as const,
  failures: (p: string) => ["scheduled-actions", p, "failures"] as const,
  batch: (p: string, id: string) => ["scheduled-actions", p, "batch", id] as const,
  defaults: (p: string) => ["scheduled-actions", p, "defaults"] as const,
};

/** One function per documented route. */
export const scheduledApi = {
  list: (f: ActionFilter) => call<ActionPage>("GET", "/v2/scheduled-actions", { query: { ...f, expand: "target" } }),
  failures: () => call<Failures>("GET", "/v2/scheduled-actions/failures"),
  /** The project's publishing time zone, or null when none is set. */
  defaults: () => call<Defaults>("GET", "/v2/scheduled-actions/defaults"),
  batch: (id: string) => call<Batch>("GET", `/v2/scheduled-actions/batch/${id}`),
  reschedule: (id: string, wallTime: string, timezone: string) =>
    call<ScheduledAction>("PATCH", `/v2/scheduled-actions/${id}`, { body: { wallTime, timezone } satisfies RescheduleBody }),
  rescheduleBatch: (id: string, wallTime: string, timezone: string) =>
    call<Rescheduled>("PATCH", `/v2/scheduled-actions/batch/${id}`, { body: { wallTime, timezone } satisfies RescheduleBody }),
  cancel: (id: string) => call<ScheduledAction>("POST", `/v2/scheduled-actions/${id}/cancel`, { body: {} }),
  cancelBatch: (id: string) => call<CancelledBatch>("POST", `/v2/scheduled-actions/batch/${id}/cancel`, { body: {} }),
  retry: (id: string) => call<Scheduled>("POST", `/v2/scheduled-actions/${id}/retry`, { body: {} }),
};
