// Saved views of entry lists (decisions.md 15): a name, the columns, sort, where and search of a
// model's list, private to their creator or shared with the project. Everyone who reads entries
// may keep private views; sharing one (making it or changing it) takes a role that edits entries,
// so viewers use views but never make shared ones. A view is changed or deleted by its creator,
// and a shared one also by owners and admins. Every answer is the view as it opens now (fit.ts).
import type { Static } from "@sinclair/typebox";
import { and, eq, or } from "drizzle-orm";
import { fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import { savedViews } from "../../storage/project/schema.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { holds, requireScope, type Principal } from "../access/principal.ts";
import { actorFrom } from "../events/outbox.ts";
import { allModels, modelOrFail } from "../models/catalog.ts";
import { isUuid } from "../models/fields.ts";
import { write } from "../unit-of-work.ts";
import type { CreateViewBody, UpdateViewBody } from "./bodies.ts";
import { checkView, fitView } from "./fit.ts";

type ViewRow = typeof savedViews.$inferSelect;

/** Sharing a view is for roles that edit entries (not viewers). */
const SHARE_SCOPE = "instance:update";
/** Changing someone else's shared view is for those who manage the project. */
const MANAGE_SCOPE = "settings:update";

const actorId = (p: Principal) => (p.kind === "user" ? `user:${p.userId}` : `api_key:${p.keyId}`);

/** The view as it opens: its parts fitted to the model as it is now. */
function viewOut(h: ProjectHandle, p: Principal, r: ViewRow) {
  const m = allModels(h).byId.get(r.modelId);
  if (!m) fail("not_found", { message: "The model of this view was deleted; delete the view." });
  const fitted = fitView(h, m, {
    columns: JSON.parse(r.columns) as string[],
    sort: r.sort,
    where: r.whereJson === null ? null : (JSON.parse(r.whereJson) as Record<string, unknown>),
  });
  return {
    id: r.id,
    model: m.namespace,
    modelId: m.id,
    name: r.name,
    shared: r.shared,
    columns: fitted.columns,
    sort: fitted.sort,
    where: fitted.where,
    search: r.search,
    mine: r.createdBy === actorId(p),
    createdBy: actorFrom(r.createdBy),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    dropped: fitted.dropped,
  };
}

/** A view the caller may see (shared, or theirs), or 404 for every other id. */
function visibleRow(h: ProjectHandle, p: Principal, id: string): ViewRow {
  const r = isUuid(id) ? h.db.select().from(savedViews).where(eq(savedViews.id, id.toLowerCase())).get() : undefined;
  if (!r || (!r.shared && r.createdBy !== actorId(p))) fail("not_found", { message: "No such view." });
  return r;
}

/** `GET /v2/views?model=`: the shared views and the caller's own, oldest first; views of deleted models are left out. */
export function listViews(h: ProjectHandle, p: Principal, q: { model?: unknown }) {
  const modelId = q.model === undefined ? null : modelOrFail(h, q.model).id;
  const models = allModels(h).byId;
  const seen = or(eq(savedViews.shared, true), eq(savedViews.createdBy, actorId(p)));
  const rows = h.db
    .select()
    .from(savedViews)
    .where(modelId ? and(seen, eq(savedViews.modelId, modelId)) : seen)
    .orderBy(savedViews.createdAt, savedViews.id)
    .all();
  return { data: rows.filter((r) => models.has(r.modelId)).map((r) => viewOut(h, p, r)) };
}

export function getView(h: ProjectHandle, p: Principal, id: string) {
  return viewOut(h, p, visibleRow(h, p, id));
}

/** `POST /v2/views`. */
export function createView(s: Services, h: ProjectHandle, p: Principal, body: Static<typeof CreateViewBody>) {
  const m = modelOrFail(h, body.model);
  const shared = body.shared === true;
  if (shared) requireScope(p, SHARE_SCOPE);
  const parts = { columns: body.columns ?? [], sort: body.sort ?? null, where: body.where ?? null };
  checkView(h, m, parts);
  const now = iso(s.clock.now());
  const row: ViewRow = {
    id: s.ids.uuid(),
    modelId: m.id,
    name: body.name.trim(),
    shared,
    columns: JSON.stringify(parts.columns),
    sort: parts.sort,
    whereJson: parts.where === null ? null : JSON.stringify(parts.where),
    search: body.search ?? null,
    createdBy: actorId(p),
    createdAt: now,
    updatedAt: now,
  };
  write(s, h, () => {
    h.db.insert(savedViews).values(row).run();
  });
  return viewOut(h, p, row);
}

/** Refuses a change by someone who may not make it: the creator, or owners and admins for a shared view. */
function mayChange(p: Principal, r: ViewRow): void {
  if (r.createdBy === actorId(p)) return;
  if (!r.shared) fail("not_found", { message: "No such view." });
  requireScope(p, MANAGE_SCOPE);
}

/** `PATCH /v2/views/:id`: the parts sent; the whole view must fit the model after the change. */
export function updateView(s: Services, h: ProjectHandle, p: Principal, id: string, body: Static<typeof UpdateViewBody>) {
  const r = visibleRow(h, p, id);
  mayChange(p, r);
  const next: ViewRow = { ...r, updatedAt: iso(s.clock.now()) };
  if (body.name !== undefined) next.name = body.name.trim();
  if (body.shared !== undefined) next.shared = body.shared;
  // A shared view is for all to see: making it so, or changing one, takes a role that edits entries.
  if (next.shared && !holds(p, SHARE_SCOPE)) requireScope(p, SHARE_SCOPE);
  if (body.columns !== undefined) next.columns = JSON.stringify(body.columns);
  if (body.sort !== undefined) next.sort = body.sort;
  if (body.where !== undefined) next.whereJson = body.where === null ? null : JSON.stringify(body.where);
  if (body.search !== undefined) next.search = body.search;
  const m = allModels(h).byId.get(r.modelId);
  if (!m) fail("not_found", { message: "The model of this view was deleted; delete the view." });
  // Only the parts sent are checked strictly: a saved part that stopped fitting stays dropped on open.
  checkView(h, m, {
    columns: body.columns ?? [],
    sort: body.sort ?? null,
    where: body.where ?? null,
  });
  write(s, h, () => {
    h.db.update(savedViews).set(next).where(eq(savedViews.id, r.id)).run();
  });
  return viewOut(h, p, next);
}

/** `DELETE /v2/views/:id`. */
export function deleteView(s: Services, h: ProjectHandle, p: Principal, id: string): void {
  const r = visibleRow(h, p, id);
  mayChange(p, r);
  write(s, h, () => {
    h.db.delete(savedViews).where(eq(savedViews.id, r.id)).run();
  });
}
