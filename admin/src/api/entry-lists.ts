// The entry list's routes (docs/app-server.md, "Entry lists", "Bulk", "Export"): a page by sort,
// where and search with keyset cursors, the model's columns, bulk actions over ids or over the
// list's own filter ("select all N that match"), and the export of a selection as a file.
import type { BulkBody, BulkScheduleBody, ExportBody } from "../../../src/shared/bodies.ts";
import type { BulkBatch, BulkResult, BulkScheduled, EntryPage, ListColumns } from "../../../src/shared/entries.ts";
import { call, refusalOf, requestHeaders } from "./client.ts";
import type { EntryStatus } from "./types.ts";

export type { Editor, ListColumn, ListedEntry } from "../../../src/shared/entries.ts";

/** What a list asks for. */
export interface ListQuery {
  status?: EntryStatus;
  q?: string;
  sort?: string;
  where?: Record<string, unknown> | null;
  limit: number;
  after?: string | null;
  /** The locale listed (issue 28); absent for the project's default, so such a request is as before. */
  locale?: string;
}

/** Entries named by id, or every entry of a model the list's filter matches. */
export type Selected = { instanceIds: string[] } | { modelId: string; where?: Record<string, unknown>; q?: string; status?: EntryStatus };

export type BulkAction = "publish" | "unpublish" | "delete";

export const listApi = {
  page: (model: string, q: ListQuery) =>
    call<EntryPage>("GET", "/v2/model-instances", {
      query: {
        model,
        status: q.status,
        q: q.q,
        sort: q.sort,
        where: q.where ? JSON.stringify(q.where) : undefined,
        limit: q.limit,
        after: q.after ?? undefined,
        locale: q.locale,
      },
    }),
  columns: (model: string) => call<ListColumns>("GET", "/v2/model-instances/columns", { query: { model } }).then((r) => r.columns),
  /** `locale` is the list's (what a filter selection matches); `locales` what a publish or unpublish moves. */
  bulk: (action: BulkAction, sel: Selected, opts: { dryRun?: boolean; expectedCount?: number; locales?: string[] }, locale?: string) =>
    call<BulkResult>("POST", `/v2/model-instances/bulk-${action}`, { body: { ...sel, ...opts } satisfies BulkBody, query: { locale } }),
  batch: (id: string) => call<BulkBatch>("GET", `/v2/model-instances/bulk/${id}`),
  schedule: (
    sel: Selected,
    s: { action: "publish" | "unpublish"; wallTime: string; timezone: string; dryRun?: boolean; expectedCount?: number; locales?: string[] },
    locale?: string,
  ) => call<BulkScheduled>("POST", "/v2/model-instances/bulk-schedule", { body: { ...sel, ...s } satisfies BulkScheduleBody, query: { locale } }),
  /** The export of a selection as a file to save (POST /v2/model-instances/export, streamed). */
  export: async (e: { model: string; format: "csv" | "json"; columns: string[]; sort?: string; selected: Selected; locale?: string }): Promise<Blob> => {
    // The export names its model itself; a filter selection goes without modelId.
    const { modelId: _, ...filter } = "modelId" in e.selected ? e.selected : { modelId: "", ...e.selected };
    const body = { model: e.model, format: e.format, columns: e.columns, sort: e.sort, ...filter } satisfies ExportBody;
    const headers = await requestHeaders({ "content-type": "application/json", accept: e.format === "csv" ? "text/csv" : "application/json" });
    const res = await fetch(`/v2/model-instances/export${e.locale ? `?locale=${encodeURIComponent(e.locale)}` : ""}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    if (!res.ok) throw refusalOf(res.status, (await res.json().catch(() => null)) as Record<string, unknown> | null);
    return res.blob();
  },
};

/** Query keys of lists: under `["entries", project, model]`, so a write to a model's entries refreshes them. */
export const listKeys = {
  page: (project: string, model: string, q: ListQuery) => ["entries", project, model, "page", q] as const,
  columns: (project: string, model: string) => ["list-columns", project, model] as const,
};
