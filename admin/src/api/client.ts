// The typed client of the public /v2 API: the only code in the app that sends requests (screens
// call these functions through TanStack Query, never fetch). Every call is a documented route
// a script could call too (decisions.md 11).
import type {
  BulkBody,
  CreateEntryBody,
  CurrentProjectBody,
  PreviewTokenBody,
  PublishBody,
  RescheduleBody,
  ScheduleBody,
  UnpublishBody,
  UpdateEntryBody,
} from "../../../src/shared/bodies.ts";
import type { BulkResult, PreviewToken } from "../../../src/shared/entries.ts";
import type { EntryActions, Scheduled } from "../../../src/shared/scheduling.ts";
import { localeFor } from "./entry-locale.ts";
import { authHeaders, signOut } from "./session.ts";
import type {
  Entry,
  EntryPage,
  EntrySort,
  EntryStatus,
  MediaFolder,
  Member,
  Model,
  Project,
  ScheduledAction,
  TreeNode,
  Version,
  WorkspaceList,
} from "./types.ts";

/** A refusal from the server: the status, its `code`, the field it names, if any, and the whole body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    readonly field: string | null,
    readonly body: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

let projectId: string | null = null;

/** Chooses the project every request acts in (sent as x-svc-project). */
export function actInProject(id: string | null): void {
  projectId = id;
}

/** The project requests act in. */
export function currentProjectId(): string | null {
  return projectId;
}

type Query = Record<string, string | number | undefined | null>;

/** The headers of every /v2 request: JSON answers, the person's bearer token, the project acted in. */
export async function requestHeaders(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const headers: Record<string, string> = { accept: "application/json", ...extra, ...(await authHeaders()) };
  if (projectId) headers["x-svc-project"] = projectId;
  return headers;
}

/** The ApiError of a refused answer (`json` is its parsed body, if any); a 401 also signs out. */
export function refusalOf(status: number, json: Record<string, unknown> | null): ApiError {
  if (status === 401) signOut();
  // `path` is how a layout refusal names the part of the document to fix (interface.md, Entry layouts).
  const named = [json?.field, json?.param, json?.path].find((v): v is string => typeof v === "string");
  return new ApiError(status, String(json?.error ?? `The server answered ${status}.`), (json?.code as string) ?? null, named ?? null, json);
}

/** Sends one /v2 request; screens reach it through the typed functions of api/*.ts. */
export async function call<T>(method: string, path: string, opts: { body?: unknown; query?: Query; headers?: Record<string, string> } = {}): Promise<T> {
  const headers = await requestHeaders(opts.headers);
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  let url = path;
  // The entry editor's locale rides on every route of the entry it edits (api/locales.ts).
  const locale = localeFor(path);
  if (locale && !opts.query?.locale) opts = { ...opts, query: { ...opts.query, locale } };
  if (opts.query) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
    const s = q.toString();
    if (s) url += `?${s}`;
  }
  const res = await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  if (res.status === 204) return undefined as T;
  const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok) throw refusalOf(res.status, json);
  return json as T;
}

/** The query keys of each resource, so a write can invalidate exactly what it changed. */
export const keys = {
  projects: () => ["projects"] as const,
  members: (project: string) => ["members", project] as const,
  models: (project: string) => ["models", project] as const,
  workspaces: (project: string) => ["workspaces", project] as const,
  tree: (project: string, workspace: string) => ["workspace-tree", project, workspace] as const,
  entries: (project: string, model: string) => ["entries", project, model] as const,
  entryList: (project: string, model: string, filter: EntryFilter) => ["entries", project, model, filter] as const,
  /** An entry as the editor reads it; `locale` names the locale of a project with several. */
  entry: (project: string, id: string, locale?: string | null) => (locale ? (["entry", project, id, locale] as const) : (["entry", project, id] as const)),
  versions: (project: string, id: string) => ["versions", project, id] as const,
  scheduled: (project: string, id: string) => ["scheduled", project, id] as const,
  mediaFolders: (project: string) => ["media-folders", project] as const,
};

/** The filters of an entry list. */
export interface EntryFilter {
  status?: EntryStatus;
  q?: string;
  sort?: EntrySort;
}

/** Scheduling a publish or unpublish at a wall time in an IANA zone. */
export interface ScheduleInput {
  action: "publish" | "unpublish";
  entryId: string;
  wallTime: string;
  timezone: string;
  /** The locales the action moves (an entry with localized fields; default: the server's). */
  locales?: string[];
}

export const api = {
  projects: {
    list: () => call<{ data: Project[] }>("GET", "/v2/projects").then((r) => r.data),
    setCurrent: (id: string) => call<unknown>("PUT", "/v2/projects/current", { body: { projectId: id } satisfies CurrentProjectBody }),
    members: (id: string) => call<{ data: Member[] }>("GET", `/v2/projects/${id}/members`).then((r) => r.data),
  },
  models: {
    list: () => call<{ data: Model[] }>("GET", "/v2/models").then((r) => r.data),
  },
  mediaFolders: {
    /** Every media folder of the project (the rail names its media folder nodes; the library builds the tree). */
    list: () => call<{ data: MediaFolder[] }>("GET", "/v2/media-folders").then((r) => r.data),
  },
  previews: {
    /** A fresh preview token for some entries (POST /v2/preview-tokens), valid an hour. */
    create: (entryIds: string[]) => call<PreviewToken>("POST", "/v2/preview-tokens", { body: { entryIds } satisfies PreviewTokenBody }),
  },
  workspaces: {
    list: () => call<WorkspaceList>("GET", "/v2/workspaces"),
    tree: (id: string) => call<{ data: TreeNode[] }>("GET", `/v2/workspaces/${id}/tree`).then((r) => r.data),
  },
  entries: {
    list: (model: string, filter: EntryFilter, after: string | null, limit = 25) =>
      call<EntryPage>("GET", "/v2/model-instances", {
        query: { model, status: filter.status, q: filter.q, sort: filter.sort, after: after ?? undefined, limit },
      }),
    /** An entry; `locale` reads localized fields in one locale, or every locale with `*`. */
    get: (id: string, locale?: string | null) => call<Entry>("GET", `/v2/model-instances/${id}`, locale ? { query: { locale } } : {}),
    create: (model: string, data: Record<string, unknown>) => call<Entry>("POST", "/v2/model-instances", { body: { model, data } satisfies CreateEntryBody }),
    /** Saves a draft; with `basedOn` (the version edited) a newer version elsewhere is a 409 version_conflict. */
    update: (id: string, data: Record<string, unknown>, basedOn?: number) =>
      call<Entry>("PATCH", `/v2/model-instances/${id}`, {
        body: { data } satisfies UpdateEntryBody,
        headers: basedOn === undefined ? {} : { "if-match": String(basedOn) },
      }),
    remove: (id: string) => call<void>("DELETE", `/v2/model-instances/${id}`),
    /** Publishes the latest draft; `locales` names the locales that go live (default: the server's). */
    publish: (id: string, locales?: string[]) =>
      call<Entry>("POST", `/v2/model-instances/${id}/publish`, { body: (locales ? { locales } : {}) satisfies PublishBody }),
    unpublish: (id: string, locales?: string[]) =>
      call<Entry>("POST", `/v2/model-instances/${id}/unpublish`, { body: (locales ? { locales } : {}) satisfies UnpublishBody }),
    /** Publishes or unpublishes many entries; `dryRun` only counts, `expectedCount` guards a changed selection. */
    bulk: (action: "publish" | "unpublish", ids: string[], opts: { dryRun?: boolean; expectedCount?: number }) =>
      call<BulkResult>("POST", `/v2/model-instances/bulk-${action}`, { body: { instanceIds: ids, ...opts } satisfies BulkBody }),
    /** Saves an old version's values as a new draft version (POST .../versions/:versionId/restore). */
    restore: (id: string, versionId: string) => call<Entry>("POST", `/v2/model-instances/${id}/versions/${versionId}/restore`, { body: {} }),
    versions: (id: string) => call<{ data: Version[] }>("GET", `/v2/model-instances/${id}/versions`).then((r) => r.data),
  },
  scheduled: {
    /** Schedules one publish or unpublish of an entry; the answer holds the server's resolved instant. */
    create: (s: ScheduleInput) =>
      call<Scheduled>("POST", "/v2/scheduled-actions", {
        body: {
          action: s.action,
          targets: [{ type: "instance", id: s.entryId }],
          wallTime: s.wallTime,
          timezone: s.timezone,
          ...(s.locales ? { locales: s.locales } : {}),
        } satisfies ScheduleBody,
      }),
    forEntry: (id: string) => call<EntryActions>("GET", `/v2/model-instances/${id}/scheduled`).then((r) => r.data),
    cancel: (id: string) => call<ScheduledAction>("POST", `/v2/scheduled-actions/${id}/cancel`, { body: {} }),
    /** Moves a pending action to another wall time in a zone. */
    reschedule: (id: string, wallTime: string, timezone: string) =>
      call<ScheduledAction>("PATCH", `/v2/scheduled-actions/${id}`, { body: { wallTime, timezone } satisfies RescheduleBody }),
  },
};
