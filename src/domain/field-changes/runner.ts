// The `field-changes` job: works through queued changes one step at a time. Each step is one
// transaction, and the change's state and cursor are written in the transaction of the work they
// describe, so a crash between steps resumes where it stopped and a crash inside one loses only
// that step. Steps:
//   planned    counts one chunk of a large plan (the plan stays planned)
//   queued     -> converting
//   converting stages one chunk of entries; after the last -> moving, or failed when a value
//              failed and its decision says stop
//   moving     re-stages entries saved since they were staged, then swaps the entries and the
//              model to the new shape in one transaction -> done (or failed, model untouched)
import { eq } from "drizzle-orm";
import { fieldChanges } from "../../storage/project/schema.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { updateModel } from "../models/service.ts";
import { allModels, type Model } from "../models/catalog.ts";
import { pruneLayout, type Layout } from "../layouts/validate.ts";
import { writeLayout } from "../layouts/service.ts";
import { countEntries, type EntryCopies } from "./plan.ts";
import { stageEntry, stopFailures, type StageCtx } from "./stage.ts";
import { clearStaging, convertCtx, COPIES_SQL } from "./copies.ts";
import { planOf, type FieldChangeRow, type StoredCounts } from "./record.ts";
import { hasWork } from "./work.ts";
import { explicitSettings } from "../models/settings.ts";
import { write } from "../unit-of-work.ts";

/** How much one run of the job may do. */
export interface RunOptions {
  /** Entries per converting step (default 200) and per counting step (default 500). */
  chunkSize?: number;
  /** Stop after this many steps (tests use it to stop mid-way). */
  maxSteps?: number;
  /** Time a run may take before it leaves the rest for the next tick (default 500 ms). */
  budgetMs?: number;
}

const STAGE_CHUNK = 200;
const COUNT_CHUNK = 500;

type EntryRow = EntryCopies & { createdAt: string };

/** The entries of a model after a cursor, in (created_at, id) order. */
function nextEntries(h: ProjectHandle, row: FieldChangeRow, limit: number): EntryRow[] {
  if (row.cursorId === null) {
    return h.sqlite.query(`${COPIES_SQL} WHERE model_id = ? ORDER BY created_at, id LIMIT ?`).all(row.modelId, limit) as EntryRow[];
  }
  return h.sqlite
    .query(`${COPIES_SQL} WHERE model_id = ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?`)
    .all(row.modelId, row.cursorCreatedAt, row.cursorId, limit) as EntryRow[];
}

function setRow(h: ProjectHandle, id: string, patch: Partial<FieldChangeRow>): void {
  h.db.update(fieldChanges).set(patch).where(eq(fieldChanges.id, id)).run();
}

function failRow(h: ProjectHandle, row: FieldChangeRow, now: string, code: string, message: string): void {
  setRow(h, row.id, { state: "failed", error: JSON.stringify({ code, message }), updatedAt: now, finishedAt: now });
}

function stageCtx(h: ProjectHandle, row: FieldChangeRow, m: Model, now: string): StageCtx {
  const plan = planOf(row);
  return {
    ...convertCtx(h, m, plan.ops, plan.editFields),
    changeId: row.id,
    decisions: plan.decisions!,
    keepBoth: plan.keepBoth,
    targetFields: plan.targetFields!,
    now,
  };
}

/** The model of a change when it is still the version the change applies to; otherwise the change fails. */
function baseModel(h: ProjectHandle, row: FieldChangeRow, now: string): Model | null {
  const m = allModels(h).byId.get(row.modelId);
  if (!m) {
    // Nothing can move any more; what was staged goes, the failures stay listed.
    clearStaging(h, row.id, { keepFailures: true });
    failRow(h, row, now, "not_found", "The model of this change was deleted.");
    return null;
  }
  if (m.version !== row.baseVersion) {
    failRow(h, row, now, "plan_stale", "The model changed while the change ran; resume it to start again on the new version.");
    return null;
  }
  return m;
}

/** Counts one chunk of a large plan. */
function countStep(h: ProjectHandle, row: FieldChangeRow, now: string, chunk: number): boolean {
  const counts = JSON.parse(row.counts!) as StoredCounts;
  if (counts.ready) return false;
  const m = allModels(h).byId.get(row.modelId);
  if (!m || m.version !== row.baseVersion) {
    // The plan is stale; applying it answers plan_stale, so there is nothing left to count.
    setRow(h, row.id, { counts: JSON.stringify({ ...counts, ready: true }), updatedAt: now });
    return false;
  }
  const plan = planOf(row);
  const rows = nextEntries(h, row, chunk);
  countEntries(convertCtx(h, m, plan.ops, plan.editFields), rows, counts.ops);
  const last = rows.at(-1);
  counts.ready = rows.length < chunk;
  setRow(h, row.id, {
    counts: JSON.stringify(counts),
    done: row.done + rows.length,
    updatedAt: now,
    ...(last ? { cursorCreatedAt: last.createdAt, cursorId: last.id } : {}),
  });
  return !counts.ready;
}

/** Stages one chunk of entries. */
function stageStep(h: ProjectHandle, row: FieldChangeRow, now: string, chunk: number): boolean {
  const m = baseModel(h, row, now);
  if (!m) return false;
  const ctx = stageCtx(h, row, m, now);
  const rows = nextEntries(h, row, chunk);
  for (const e of rows) stageEntry(h, ctx, e);
  const last = rows.at(-1);
  const patch: Partial<FieldChangeRow> = {
    done: row.done + rows.length,
    updatedAt: now,
    ...(last ? { cursorCreatedAt: last.createdAt, cursorId: last.id } : {}),
  };
  if (rows.length === chunk) {
    setRow(h, row.id, patch);
    return true;
  }
  const stopped = stopFailures(h, ctx);
  if (stopped > 0) {
    setRow(h, row.id, patch);
    failRow(
      h,
      row,
      now,
      "conversion_failed",
      `${stopped} value${stopped === 1 ? "" : "s"} failed to convert and the decision is to stop; fix them and resume, or resume with onFailure clear.`,
    );
    return false;
  }
  setRow(h, row.id, { ...patch, state: "moving" });
  return true;
}

/**
 * Moves the model: entries saved or published since they were staged (and entries created since)
 * are staged again, then every staged copy and version replaces the stored one and the model
 * takes its new fields, all in this one transaction.
 */
function moveStep(s: Services, h: ProjectHandle, row: FieldChangeRow, now: string): boolean {
  const m = baseModel(h, row, now);
  if (!m) return false;
  const ctx = stageCtx(h, row, m, now);
  const stale = h.sqlite
    .query(
      `SELECT e.id, e.created_at AS createdAt, e.deleted_at AS deletedAt, e.draft_version_id AS draftVersionId, e.draft_data AS draftData, e.published_version_id AS publishedVersionId,
            e.published_data AS publishedData, e.draft_tags AS draftTags, e.draft_folder AS draftFolder, e.published_tags AS publishedTags,
            e.published_folder AS publishedFolder, e.locale_state AS localeState, e.published_at AS publishedAt
       FROM entries e LEFT JOIN field_change_rows r ON r.change_id = ? AND r.entry_id = e.id
      WHERE e.model_id = ? AND (r.entry_id IS NULL OR r.draft_version_id <> e.draft_version_id OR r.published_version_id IS NOT e.published_version_id)`,
    )
    .all(row.id, row.modelId) as EntryCopies[];
  for (const e of stale) stageEntry(h, ctx, e);
  const stopped = stopFailures(h, ctx);
  if (stopped > 0) {
    failRow(
      h,
      row,
      now,
      "conversion_failed",
      `${stopped} value${stopped === 1 ? "" : "s"} failed to convert and the decision is to stop; fix them and resume, or resume with onFailure clear.`,
    );
    return false;
  }
  h.sqlite
    .query(
      `UPDATE entries SET draft_data = r.draft_data, draft_keys = r.draft_keys,
            published_data = CASE WHEN entries.published_version_id IS NULL THEN entries.published_data ELSE r.published_data END,
            published_keys = CASE WHEN entries.published_version_id IS NULL THEN entries.published_keys ELSE r.published_keys END,
            locale_state = r.locale_state
       FROM field_change_rows r WHERE r.change_id = ? AND r.entry_id = entries.id`,
    )
    .run(row.id);
  h.sqlite.query("UPDATE entry_versions SET data = v.data FROM field_change_versions v WHERE v.change_id = ? AND v.version_id = entry_versions.id").run(row.id);
  const plan = planOf(row);
  const moved = updateModel(
    s,
    h,
    m.id,
    { editFields: plan.editFields.map(explicitSettings), removeIds: plan.removeIds, addFields: Object.values(plan.keepBoth) },
    row.createdBy,
    {
      fieldChange: true,
    },
  );
  // The model must now hold exactly the fields the entries were converted for.
  if (JSON.stringify(moved.fields) !== JSON.stringify(plan.targetFields))
    throw new Error(`field change ${row.id}: the moved model's fields differ from the planned ones`);
  if (moved.layout) writeLayout(h, m.id, pruneLayout(moved.layout as Layout, moved.fields));
  const total = (h.sqlite.query("SELECT count(*) AS n FROM field_change_rows WHERE change_id = ?").get(row.id) as { n: number }).n;
  // Failures stay listed on the finished change; only the staged copies go.
  clearStaging(h, row.id, { keepFailures: true });
  setRow(h, row.id, {
    state: "done",
    resultVersion: moved.version,
    total,
    done: total,
    updatedAt: now,
    finishedAt: now,
    cursorCreatedAt: null,
    cursorId: null,
  });
  return false;
}

/** Runs one step of one change in one transaction. Answers whether there is more to do right away. */
export function stepChange(s: Services, h: ProjectHandle, id: string, now: number, opts: RunOptions = {}): boolean {
  const at = iso(now);
  try {
    const more = write(s, h, (tx) => {
      const row = h.db.select().from(fieldChanges).where(eq(fieldChanges.id, id)).get();
      if (!row) return false;
      switch (row.state) {
        case "planned":
          return countStep(h, row, at, opts.chunkSize ?? COUNT_CHUNK);
        case "queued": {
          const total = (h.sqlite.query("SELECT count(*) AS n FROM entries WHERE model_id = ?").get(row.modelId) as { n: number }).n;
          setRow(h, row.id, { state: "converting", startedAt: row.startedAt ?? at, total, updatedAt: at });
          return true;
        }
        case "converting":
          return stageStep(h, row, at, opts.chunkSize ?? STAGE_CHUNK);
        case "moving": {
          // Readers are told after the commit, so none caches the model as it was before it.
          tx.modelsChanged();
          tx.contentChanged();
          return moveStep(s, h, row, at);
        }
        default:
          return false;
      }
    });
    return more;
  } catch (e) {
    // A step that throws would throw again on every tick; the change stops as failed instead and
    // can be resumed. Nothing of the step was written.
    s.log.error("field change step failed", { projectId: h.id, changeId: id, error: String(e instanceof Error ? e.stack : e) });
    h.db
      .update(fieldChanges)
      .set({
        state: "failed",
        updatedAt: at,
        finishedAt: at,
        error: JSON.stringify({ code: "internal", message: "The change stopped on an unexpected error; resume it to try again." }),
      })
      .where(eq(fieldChanges.id, id))
      .run();
    return false;
  }
}

/** Lets the event loop serve requests between two steps. */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The job body: works on every project with field-change work until each is done, `maxSteps`
 * steps have run or the time budget is spent. Each step is synchronous (one transaction), and
 * requests are served between steps. Answers the number of steps run.
 */
export async function runFieldChanges(s: Services, now: number, opts: RunOptions = {}): Promise<number> {
  if (!s.config.fieldChanges) return 0;
  const maxSteps = opts.maxSteps ?? Infinity;
  const until = performance.now() + (opts.budgetMs ?? 500);
  let steps = 0;
  const set = s.wake.fieldChanges.projects();
  for (const projectId of [...set]) {
    if (!s.projects.exists(projectId)) {
      set.delete(projectId);
      continue;
    }
    const h = s.projects.get(projectId);
    const ids = h.sqlite
      .query(
        `SELECT id FROM field_changes WHERE state IN ('queued', 'converting', 'moving')
         OR (state = 'planned' AND json_extract(counts, '$.ready') = 0) ORDER BY created_at, id`,
      )
      .all() as { id: string }[];
    for (const { id } of ids) {
      while (steps < maxSteps && performance.now() < until) {
        steps++;
        if (!stepChange(s, h, id, now, opts)) break;
        await yieldToRequests();
      }
    }
    if (!hasWork(h)) set.delete(projectId);
    if (steps >= maxSteps || performance.now() >= until) break;
  }
  return steps;
}
