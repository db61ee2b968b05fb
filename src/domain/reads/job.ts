// An entries read as a message: what a read-pool worker needs to run it (the typed arguments of
// args.ts, never a query string), and what it answers. Everything here is plain data
// (structured-clone safe). Its reader too: what a reader may see, from a key's instance:read
// grants (computed once when the key is loaded), the signature under which keys with the same
// grants share cached answers, and the Reader that queries use; the routes build the same
// Reader on the main thread.
import { AppError, type ErrorCode } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { DRAFTS, PUBLISHED, previewVis, type Vis } from "./names.ts";
import { readList, readOne, type Reader } from "./query.ts";
import type { ReadArgs } from "./args.ts";

export interface ReadJob {
  projectId: string;
  ns: string;
  /** What the read asks for (args.ts): a list, or one entry by id. */
  args: ReadArgs;
  production: boolean;
  /** The drafts a preview token uncovers for a production read, or null. */
  preview: { entryIds: string[] | null; modelId: string | null } | null;
  /** The key's instance:read grants (`instance:read` or `instance:read:<modelId>`). */
  grants: string[];
  /** A GraphQL root field's read: row cursors and stored relation ids come back too. */
  graphql?: boolean;
  /** A GraphQL connection that selects edges or pageInfo: each row's cursor comes back (25 encodings a page otherwise spent). */
  rowCursors?: boolean;
  /** The base of public file URLs (CAPA_MEDIA_BASE_URL), for media references in the answer. */
  mediaBase?: string;
}

export type ReadOutcome =
  | {
      ok: true;
      /** The JSON text of `data`. */
      dataJson: string;
      page?: { limit: number; next: string | null; prev: string | null };
      count?: number;
      /** Each row's cursor (GraphQL reads only). */
      cursors?: string[];
      missingReferences: string[];
      models: string[];
      entryIds: string[];
      /** The locale read and the values that fell back, when the read named a locale (meta.locale, meta.fallbacks). */
      locale?: string;
      fallbacks?: { id: string; field: string; locale: string }[];
    }
  | { ok: false; error: { code: ErrorCode; message: string; param?: string; hint?: string; extra?: Record<string, unknown> } };

/** The instance:read grants among a key's scopes (`instance:read` or `instance:read:<modelId>`). */
export function readGrantsOf(scopes: Iterable<string>): string[] {
  return [...scopes].filter((x) => x === "instance:read" || x.startsWith("instance:read:")).sort();
}

/** The part of a key that changes what it may read: keys with equal signatures share answers. */
export function grantSignature(grants: readonly string[]): string {
  return grants.join(",");
}

/** Which copy a read sees: published (production), drafts, or published plus a preview token's drafts. */
export function visOf(production: boolean, preview: { entryIds: string[] | null; modelId: string | null } | null): Vis {
  if (!production) return DRAFTS;
  return preview ? previewVis(preview.entryIds, preview.modelId) : PUBLISHED;
}

/** The Reader of a set of grants: which models it may read, which copy it sees. */
export function readerOf(grants: readonly string[], vis: Vis, graphql?: boolean): Reader {
  const all = grants.includes("instance:read");
  const set = new Set(grants);
  return { vis, readable: (mid) => all || set.has(`instance:read:${mid}`), graphql };
}

/** The reader of a job: which copy it sees and which models it may read. */
export function jobReader(job: ReadJob): Reader {
  return { ...readerOf(job.grants, visOf(job.production, job.preview), job.graphql), rowCursors: job.rowCursors, mediaBase: job.mediaBase };
}

/** Runs a job against an open project file; client errors come back as data, others throw. */
export function runReadJob(h: ProjectHandle, job: ReadJob): ReadOutcome {
  const reader = jobReader(job);
  try {
    if (job.args.kind === "list") {
      const r = readList(h, reader, job.ns, job.args);
      // Assigned, not spread: spreads are object copies, and a read is tens of microseconds.
      const list: ReadOutcome & { ok: true } = {
        ok: true,
        dataJson: JSON.stringify(r.data),
        page: r.page,
        count: r.count,
        cursors: r.cursors,
        missingReferences: r.missingReferences,
        models: r.models,
        entryIds: r.entryIds,
      };
      if (r.locale !== undefined) list.locale = r.locale;
      if (r.fallbacks !== undefined) list.fallbacks = r.fallbacks;
      return list;
    }
    const r = readOne(h, reader, job.ns, job.args);
    const item: ReadOutcome & { ok: true } = {
      ok: true,
      dataJson: JSON.stringify(r.entry),
      missingReferences: r.missingReferences,
      models: r.models,
      entryIds: r.entryIds,
    };
    if (r.locale !== undefined) item.locale = r.locale;
    if (r.fallbacks !== undefined) item.fallbacks = r.fallbacks;
    return item;
  } catch (e) {
    if (e instanceof AppError) return { ok: false, error: { code: e.code, message: e.message, param: e.param, hint: e.hint, extra: e.extra } };
    throw e;
  }
}
