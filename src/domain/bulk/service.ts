// Bulk publish, unpublish and delete to the trash: a selection by entry ids or by model plus the
// entry list's `where` (the read grammar, over drafts), `q` and `status` (entries/selection.ts),
// a dry run that only counts, `expectedCount` as a guard against a selection that moved, up to 50
// entries done inside the request and larger selections handed to a background batch (runner.ts)
// that works through them in chunks. Scheduling a selection is schedule.ts.
import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import { bulkBatches, bulkBatchItems, entries } from "../../storage/project/schema.ts";
import { AppError, badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import { allModels, isLocalizedModel } from "../models/catalog.ts";
import type { Static } from "@sinclair/typebox";
import type { BulkBody } from "./bodies.ts";
import { isUuid } from "../models/fields.ts";
import { defaultPublishLocales, liveAsDrafted, notLive, publishEntry, unpublishEntry } from "../entries/publish.ts";
import { type EntryLocale, localesOf } from "../locales/entry-locale.ts";
import { selectedIds, selectionOf } from "../entries/selection.ts";
import { trashEntry } from "../entries/trash.ts";
import { actorFrom } from "../events/outbox.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { write } from "../unit-of-work.ts";
import { type Problem, problemsOf, validationErrors } from "../entries/validation.ts";

export type BulkAction = "publish" | "unpublish" | "delete";
export type ItemResult = "done" | "skipped" | "failed";

/** Entries done inside the request (interface.md, Limits: bulk publish inside the request). */
export const INLINE_LIMIT = 50;
export interface Selection {
  ids: string[];
  /** What was asked for, kept on a batch for its poll answer. */
  describe: Record<string, unknown>;
}

/**
 * Resolves the body's selection to entry ids (oldest first), refusing unknown ids and bad filters.
 * A selection by model selects exactly what the entry list shows for the same where, q and status.
 */
export function select(h: ProjectHandle, body: Omit<Static<typeof BulkBody>, "locales">, loc?: EntryLocale): Selection {
  if (body.where !== undefined && body.filter !== undefined) badField("filter", "Send where or filter, not both (they are the same)");
  const filter = body.where ?? body.filter;
  if (body.instanceIds !== undefined) {
    if (body.modelId !== undefined || filter !== undefined || body.q !== undefined || body.status !== undefined) {
      badField("instanceIds", "Name entries by instanceIds or by modelId with where, q and status, not both");
    }
    const v = body.instanceIds;
    const ids: string[] = [];
    const seen = new Set<string>();
    const lookup = h.sqlite.query("SELECT id FROM entries WHERE id = ? AND deleted_at IS NULL");
    v.forEach((id, i) => {
      const lower = id.toLowerCase();
      if (!lookup.get(lower)) badField(`instanceIds[${i}]`, `instanceIds[${i}] ${id} is not an entry of this project`);
      if (!seen.has(lower)) ids.push(lower);
      seen.add(lower);
    });
    return { ids, describe: { instanceIds: ids.length } };
  }
  if (body.modelId === undefined) badField("instanceIds", "Name the entries by instanceIds, or by modelId with an optional where filter");
  // In a locale (?locale=), status and q are the listed locale's, as the entry list selects.
  const sel = selectionOf(h, { model: body.modelId, where: filter, q: body.q, status: body.status, locale: loc }, { model: "modelId" });
  const m = sel.model!;
  const describe: Record<string, unknown> = { modelId: m.id, model: m.namespace, where: sel.where };
  if (body.q !== undefined) describe.q = body.q;
  if (body.status !== undefined) describe.status = body.status;
  return { ids: selectedIds(h, sel), describe };
}

/** One entry's result; a publish refused by the rules lists them in `errors` (validation.ts). */
export interface OneResult {
  result: ItemResult;
  error?: string;
  errors?: Problem[];
}

/**
 * Publishes or unpublishes one entry as part of a bulk request (in `locales`, for an entry with
 * localized fields); a refusal is a result, not an error. An entry already as asked is skipped.
 */
export function applyOne(s: Services, h: ProjectHandle, actor: string, action: BulkAction, id: string, locales: string[] | null = null): OneResult {
  const row = h.db.select().from(entries).where(eq(entries.id, id)).get();
  if (!row) return { result: "failed", error: "The entry no longer exists." };
  // An entry moved to the trash after it was selected is left there; deleting it again is nothing to do.
  if (row.deletedAt !== null) return action === "delete" ? { result: "skipped" } : { result: "failed", error: "The entry is in the trash." };
  const m = allModels(h).byId.get(row.modelId)!;
  if (action === "publish" ? liveAsDrafted(h, m, row, locales) : action === "unpublish" && notLive(m, row, locales)) return { result: "skipped" };
  try {
    if (action === "publish") publishEntry(s, h, actor, id, undefined, { locales });
    else if (action === "unpublish") unpublishEntry(s, h, actor, id, { locales });
    else trashEntry(s, h, actor, id);
    return { result: "done" };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    const errors = validationErrors(e);
    return errors ? { result: "failed", error: e.message, errors } : { result: "failed", error: e.message };
  }
}

/**
 * What a dry run of a publish says would fail: each selected entry that is not live yet and whose
 * latest draft breaks a rule, with the rules (an entry of a trashed or missing row is not selected).
 */
function wouldFail(h: ProjectHandle, ids: string[], locales: string[] | null): { id: string; errors: Problem[] }[] {
  const models = allModels(h).byId;
  const out: { id: string; errors: Problem[] }[] = [];
  for (const id of ids) {
    const r = h.db.select().from(entries).where(eq(entries.id, id)).get();
    const m = r ? models.get(r.modelId) : undefined;
    if (!r || !m || liveAsDrafted(h, m, r, locales)) continue;
    const data = JSON.parse(r.draftData) as Record<string, unknown>;
    // The locales a publish would move: those named, or by default those the draft holds values in.
    const moving = isLocalizedModel(m) ? (locales ?? defaultPublishLocales(h, m, data)) : undefined;
    const errors = problemsOf(h, m, data, moving);
    if (errors.length > 0) out.push({ id, errors });
  }
  return out;
}

export type BulkOutcome =
  | { kind: "dry_run"; body: { dryRun: true; action: BulkAction; count: number; ids: string[]; failures: { id: string; errors: Problem[] }[] } }
  | {
      kind: "done";
      body: { action: BulkAction; count: number; counts: Record<ItemResult, number>; results: ({ id: string } & OneResult)[] };
    }
  | { kind: "batch"; batchId: string; count: number };

/**
 * `POST /v2/model-instances/bulk-publish`, `bulk-unpublish` and `bulk-delete`. A dry run writes nothing; a
 * real request with `expectedCount` proceeds only when the selection still has that many entries.
 */
export function bulk(s: Services, h: ProjectHandle, actor: string, action: BulkAction, body: Static<typeof BulkBody>, loc?: EntryLocale): BulkOutcome {
  // A move to the trash takes the whole entry, every locale with it.
  if (action === "delete" && body.locales !== undefined && body.locales !== null) {
    badField("locales", "locales names what a publish or unpublish moves; bulk-delete moves whole entries to the trash");
  }
  const locales = localesOf(h, body.locales);
  const sel = select(h, body, loc);
  const count = sel.ids.length;
  if (body.dryRun === true) {
    // A dry run of a publish also says who would fail the rules and why; an unpublish has no rules.
    const failures = action === "publish" ? wouldFail(h, sel.ids, locales) : [];
    return { kind: "dry_run", body: { dryRun: true, action, count, ids: sel.ids, failures } };
  }
  if (body.expectedCount !== undefined && body.expectedCount !== count) {
    fail("selection_changed", {
      message: `The selection has ${count} entries, not the ${body.expectedCount} expected.`,
      extra: { expectedCount: body.expectedCount, count },
    });
  }
  if (count <= INLINE_LIMIT) {
    const results = sel.ids.map((id) => ({ id, ...applyOne(s, h, actor, action, id, locales) }));
    const counts: Record<ItemResult, number> = { done: 0, skipped: 0, failed: 0 };
    for (const r of results) counts[r.result]++;
    return { kind: "done", body: { action, count, counts, results } };
  }
  const batchId = s.ids.uuid();
  write(s, h, (tx) => {
    tx.afterCommit(() => s.wake.batches.note(h.id, 0));
    h.db
      .insert(bulkBatches)
      .values({
        id: batchId,
        action,
        status: "queued",
        total: count,
        selection: JSON.stringify(sel.describe),
        locales: locales === null ? null : JSON.stringify(locales),
        createdAt: iso(s.clock.now()),
        createdBy: actor,
      })
      .run();
    const insert = h.sqlite.query("INSERT INTO bulk_batch_items (batch_id, position, entry_id) VALUES (?, ?, ?)");
    sel.ids.forEach((id, i) => {
      insert.run(batchId, i, id);
    });
  });
  return { kind: "batch", batchId, count };
}

/** The poll answer of a batch: its state, a count per result and the entries that failed (up to 100). */
export function getBatch(h: ProjectHandle, batchId: unknown) {
  if (!isUuid(batchId)) fail("not_found", { message: "Batch ids are UUIDs.", extra: { field: "batchId" } });
  const b = h.db.select().from(bulkBatches).where(eq(bulkBatches.id, batchId.toLowerCase())).get();
  if (!b) fail("not_found", { message: "No such bulk batch." });
  const rows = h.db
    .select({ result: bulkBatchItems.result, n: sql<number>`count(*)` })
    .from(bulkBatchItems)
    .where(eq(bulkBatchItems.batchId, b.id))
    .groupBy(bulkBatchItems.result)
    .all();
  const counts = { done: 0, skipped: 0, failed: 0, remaining: 0 };
  for (const r of rows) counts[(r.result ?? "remaining") as keyof typeof counts] += r.n;
  const failures = h.db
    .select({ id: bulkBatchItems.entryId, error: bulkBatchItems.error, errors: bulkBatchItems.errors })
    .from(bulkBatchItems)
    .where(and(eq(bulkBatchItems.batchId, b.id), eq(bulkBatchItems.result, "failed"), isNotNull(bulkBatchItems.error)))
    .orderBy(asc(bulkBatchItems.position))
    .limit(100)
    .all()
    .map((f) => (f.errors === null ? { id: f.id, error: f.error } : { id: f.id, error: f.error, errors: JSON.parse(f.errors) as Problem[] }));
  return {
    batchId: b.id,
    action: b.action,
    status: b.status,
    total: b.total,
    counts,
    failures,
    selection: JSON.parse(b.selection),
    ...(b.locales === null ? {} : { locales: JSON.parse(b.locales) as string[] }),
    createdAt: b.createdAt,
    createdBy: actorFrom(b.createdBy),
    startedAt: b.startedAt,
    finishedAt: b.finishedAt,
  };
}
