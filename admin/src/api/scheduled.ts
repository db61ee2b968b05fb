// The scheduled-action routes of /v2 (interface.md, Scheduled publishing; docs/publishing.md),
// used only by the lazily loaded Scheduled screens. The entry editor's Schedule card keeps its
// own few calls in client.ts.
import { call } from "./client.ts";
import type { Resolved } from "./types.ts";

/** Every status of a scheduled action, in the order of its life. */
export const ACTION_STATUSES = ["pending", "running", "done", "failed", "dead", "cancelled"] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

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

/** An action's target in words (`expand=target`). */
export interface ShownTarget {
  type: "instance" | "model";
  id: string;
  modelId: string | null;
  namespace: string | null;
  title: string | null;
  missing: boolean;
}

/** A scheduled action as the routes answer it. */
export interface Action {
  id: string;
  action: "publish" | "unpublish";
  targets: { type: "instance" | "model"; id: string }[];
  wallTime: string;
  timezone: string;
  batchId: string;
  resolved: Resolved;
  status: ActionStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  lastFailedAt: string | null;
  retryOf: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** Present when listed with `expand=target`. */
  target?: ShownTarget;
}

/** One page of the list. */
export interface ActionPage {
  data: Action[];
  page: number;
  limit: number;
  total: number;
}

/** The filters of the list, as the route takes them. */
export interface ActionFilter {
  status?: string;
  batchId?: string;
  from?: string;
  to?: string;
  page?: number;
  limit?: number;
}

/** The failures of the last 7 days that got no answer (cancel or retry). */
export interface Failures {
  count: number;
  since: string;
  latest: Action | null;
}

/** A batch with a count per status. */
export interface Batch {
  batchId: string;
  total: number;
  counts: Record<ActionStatus, number>;
  actions: Action[];
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
  defaults: () => call<{ timezone: string | null }>("GET", "/v2/scheduled-actions/defaults"),
  batch: (id: string) => call<Batch>("GET", `/v2/scheduled-actions/batch/${id}`),
  reschedule: (id: string, wallTime: string, timezone: string) => call<Action>("PATCH", `/v2/scheduled-actions/${id}`, { body: { wallTime, timezone } }),
  rescheduleBatch: (id: string, wallTime: string, timezone: string) =>
    call<{ batchId: string; resolved: Resolved; actions: Action[] }>("PATCH", `/v2/scheduled-actions/batch/${id}`, { body: { wallTime, timezone } }),
  cancel: (id: string) => call<Action>("POST", `/v2/scheduled-actions/${id}/cancel`, { body: {} }),
  cancelBatch: (id: string) => call<{ batchId: string; cancelled: string[] }>("POST", `/v2/scheduled-actions/batch/${id}/cancel`, { body: {} }),
  retry: (id: string) => call<{ batchId: string; resolved: Resolved; actions: Action[] }>("POST", `/v2/scheduled-actions/${id}/retry`, { body: {} }),
};
