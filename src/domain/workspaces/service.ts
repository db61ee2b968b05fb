// Workspaces: create, list, rename, duplicate, delete, and the current, default and assigned
// workspace (interface.md, Workspace; Management routes: Workspaces). A workspace only arranges
// the admin's left rail: nothing here writes a model or an entry.
import type { Static } from "@sinclair/typebox";
import type { AssignBody, CreateWorkspaceBody, CurrentWorkspaceBody, DuplicateWorkspaceBody, UpdateWorkspaceBody } from "./bodies.ts";
import { asc, eq } from "drizzle-orm";
import { workspaces, workspacePrefs, settings } from "../../storage/project/schema.ts";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { write } from "../unit-of-work.ts";
import type { Principal } from "../access/principal.ts";
import { membershipOf } from "../projects/service.ts";
import { isUuid } from "../models/fields.ts";
import { actorFrom } from "../events/outbox.ts";
import { findModel } from "../models/catalog.ts";
import { MAX_DEPTH, MAX_NODES, TEMPLATES, depthOf, mergeTrees, parseDocument, walk, type Refs, type TreeNode } from "./tree.ts";

/** A stored workspace row. */
export type WorkspaceRow = typeof workspaces.$inferSelect;
const DEFAULT_SETTING = "workspace.default";

/** The key a caller's preferences are stored under: `user:<id>` or `api_key:<id>`. */
export function principalKey(p: Principal): string {
  return p.kind === "user" ? `user:${p.userId}` : `api_key:${p.keyId}`;
}

/** Whether a caller may see a workspace: team ones, and private ones of their own. */
function canSee(row: WorkspaceRow, p: Principal): boolean {
  return row.visibility === "team" || row.createdBy === principalKey(p);
}

/** A workspace the caller can see, or 404 (a private workspace of someone else does not exist for them). */
export function workspaceOrFail(h: ProjectHandle, p: Principal, id: unknown): WorkspaceRow {
  const row = typeof id === "string" ? h.db.select().from(workspaces).where(eq(workspaces.id, id)).get() : undefined;
  if (!row || !canSee(row, p)) fail("not_found", { message: "No such workspace.", extra: { field: "id" } });
  return row;
}

/** A workspace's stored tree. */
export function treeOf(row: WorkspaceRow): TreeNode[] {
  return JSON.parse(row.tree) as TreeNode[];
}

/** How document references are checked against this project. */
export function refsOf(h: ProjectHandle): Refs {
  const entry = h.sqlite.query("SELECT 1 AS x FROM entries WHERE id = ? AND deleted_at IS NULL");
  const folder = h.sqlite.query("SELECT 1 AS x FROM media_folders WHERE id = ?");
  return { model: (ref) => findModel(h, ref)?.id ?? null, entry: (id) => entry.get(id) !== null, mediaFolder: (id) => folder.get(id) !== null };
}

/** Saves a workspace's tree after checking the limits that an edit of any kind could break. */
export function saveTree(s: Services, h: ProjectHandle, row: WorkspaceRow, tree: TreeNode[], path = "tree"): void {
  let n = 0;
  for (const _ of walk(tree)) n++;
  if (n > MAX_NODES) badField(path, `A workspace holds at most ${MAX_NODES} nodes`);
  if (depthOf(tree) > MAX_DEPTH) badField(path, `Folders nest at most ${MAX_DEPTH} levels deep`);
  h.db
    .update(workspaces)
    .set({ tree: JSON.stringify(tree), updatedAt: iso(s.clock.now()) })
    .where(eq(workspaces.id, row.id))
    .run();
}

function defaultId(h: ProjectHandle): string | null {
  const r = h.db.select().from(settings).where(eq(settings.name, DEFAULT_SETTING)).get();
  return r?.value ?? null;
}

function prefsOf(h: ProjectHandle, key: string) {
  return h.db.select().from(workspacePrefs).where(eq(workspacePrefs.principal, key)).get();
}

/**
 * The caller's current workspace: the one they chose, else the one assigned to them, else the
 * project's default, else the first they can see. A choice that is gone or hidden is skipped.
 */
function currentId(h: ProjectHandle, p: Principal, seen: WorkspaceRow[]): string | null {
  const ids = new Set(seen.map((w) => w.id));
  const prefs = prefsOf(h, principalKey(p));
  for (const id of [prefs?.currentWorkspaceId, prefs?.assignedWorkspaceId, defaultId(h)]) if (id && ids.has(id)) return id;
  return seen[0]?.id ?? null;
}

/** The workspace record of the management API. */
export function workspaceRecord(row: WorkspaceRow, ctx: { defaultId: string | null; currentId: string | null }) {
  let nodes = 0;
  for (const _ of walk(treeOf(row))) nodes++;
  return {
    id: row.id,
    name: row.name,
    icon: row.icon,
    visibility: row.visibility,
    template: row.template,
    createdBy: actorFrom(row.createdBy),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    nodes,
    isDefault: ctx.defaultId === row.id,
    isCurrent: ctx.currentId === row.id,
  };
}

/** The record of one workspace as the caller sees it (with isDefault and isCurrent). */
export function recordFor(h: ProjectHandle, p: Principal, row: WorkspaceRow) {
  return workspaceRecord(row, { defaultId: defaultId(h), currentId: currentId(h, p, visibleRows(h, p)) });
}

function visibleRows(h: ProjectHandle, p: Principal): WorkspaceRow[] {
  return h.db
    .select()
    .from(workspaces)
    .orderBy(asc(workspaces.createdAt), asc(workspaces.id))
    .all()
    .filter((w) => canSee(w, p));
}

/** `GET /v2/workspaces`: the workspaces the caller can see, oldest first, with the current and default ids. */
export function listWorkspaces(h: ProjectHandle, p: Principal) {
  const rows = visibleRows(h, p);
  const ctx = { defaultId: defaultId(h), currentId: currentId(h, p, rows) };
  return { data: rows.map((r) => workspaceRecord(r, ctx)), current: ctx.currentId, default: ctx.defaultId };
}

/** Visibility of a new workspace (team or private, as the body's model says). A key only creates team workspaces (interface.md, Workspace). */
function checkVisibility(p: Principal, v: "team" | "private" | null | undefined, dflt: string): string {
  const visibility = v ?? dflt;
  if (visibility === "private" && p.kind === "key") fail("insufficient_permissions");
  return visibility;
}

/** `POST /v2/workspaces { name, template?, visibility?, icon?, tree? }`: the template's folders, then the tree merged in. */
export function createWorkspace(s: Services, h: ProjectHandle, p: Principal, body: Static<typeof CreateWorkspaceBody>) {
  const name = body.name.trim();
  const template = body.template ?? "blank";
  const visibility = checkVisibility(p, body.visibility, "team");
  const icon = body.icon ?? null;
  const newId = () => s.ids.uuid();
  let tree: TreeNode[] = TEMPLATES[template]!.map((folder) => ({ id: newId(), type: "folder", name: folder, icon: null, children: [] }));
  if (body.tree !== undefined) tree = mergeTrees(tree, parseDocument(body.tree, "tree", refsOf(h)), newId);
  const now = iso(s.clock.now());
  const row: WorkspaceRow = {
    id: newId(),
    name,
    icon,
    visibility,
    template,
    tree: "[]",
    createdBy: principalKey(p),
    createdAt: now,
    updatedAt: now,
  };
  write(s, h, () => {
    h.db.insert(workspaces).values(row).run();
    saveTree(s, h, row, tree);
  });
  return recordFor(h, p, workspaceOrFail(h, p, row.id));
}

/**
 * A change of visibility. Private means "its creator's" (interface.md, Workspace), so only the
 * creator may make a workspace private, and never while it is the project's default or assigned
 * to members: those pointers would lead others to a workspace they can no longer see.
 */
function checkNewVisibility(s: Services, h: ProjectHandle, p: Principal, row: WorkspaceRow, v: "team" | "private" | null): string {
  const visibility = checkVisibility(p, v, row.visibility);
  if (visibility === "private" && row.visibility !== "private") {
    if (row.createdBy !== principalKey(p)) badField("visibility", "Only the person who created a workspace can make it private");
    if (defaultId(h) === row.id) badField("visibility", "The project's default workspace stays team; make another workspace the default first");
    const assigned = assignedUserIds(s, h, row.id).length;
    if (assigned > 0) badField("visibility", `This workspace is assigned to ${assigned} member${assigned === 1 ? "" : "s"}; assign them another first`);
  }
  return visibility;
}

/** `PUT /v2/workspaces/:id { name?, icon?, visibility? }`: rename, change the icon or the visibility. */
export function updateWorkspace(s: Services, h: ProjectHandle, p: Principal, id: string, body: Static<typeof UpdateWorkspaceBody>) {
  const row = workspaceOrFail(h, p, id);
  const patch: Partial<WorkspaceRow> = { updatedAt: iso(s.clock.now()) };
  if (body.name !== undefined) patch.name = body.name.trim();
  if (body.icon !== undefined) patch.icon = body.icon;
  if (body.visibility !== undefined) patch.visibility = checkNewVisibility(s, h, p, row, body.visibility);
  h.db.update(workspaces).set(patch).where(eq(workspaces.id, row.id)).run();
  return recordFor(h, p, workspaceOrFail(h, p, row.id));
}

/** `POST /v2/workspaces/:id/duplicate { name?, visibility? }`: a copy with new node ids. */
export function duplicateWorkspace(s: Services, h: ProjectHandle, p: Principal, id: string, body: Static<typeof DuplicateWorkspaceBody>) {
  const src = workspaceOrFail(h, p, id);
  const name = body.name === undefined ? `${src.name} (copy)`.slice(0, 120) : body.name.trim();
  const visibility = checkVisibility(p, body.visibility, p.kind === "key" ? "team" : src.visibility);
  const newId = () => s.ids.uuid();
  const renumber = (nodes: TreeNode[]): TreeNode[] => nodes.map((n) => ({ ...n, id: newId(), ...(n.children ? { children: renumber(n.children) } : {}) }));
  const now = iso(s.clock.now());
  const row: WorkspaceRow = {
    id: newId(),
    name,
    icon: src.icon,
    visibility,
    template: src.template,
    tree: JSON.stringify(renumber(treeOf(src))),
    createdBy: principalKey(p),
    createdAt: now,
    updatedAt: now,
  };
  h.db.insert(workspaces).values(row).run();
  return recordFor(h, p, row);
}

/** `DELETE /v2/workspaces/:id`: the workspace goes, with every pointer to it; records are untouched. */
export function deleteWorkspace(s: Services, h: ProjectHandle, p: Principal, id: string): void {
  const row = workspaceOrFail(h, p, id);
  write(s, h, () => {
    h.db.delete(workspaces).where(eq(workspaces.id, row.id)).run();
    if (defaultId(h) === row.id) h.db.delete(settings).where(eq(settings.name, DEFAULT_SETTING)).run();
    h.db.update(workspacePrefs).set({ currentWorkspaceId: null }).where(eq(workspacePrefs.currentWorkspaceId, row.id)).run();
    h.db.update(workspacePrefs).set({ assignedWorkspaceId: null }).where(eq(workspacePrefs.assignedWorkspaceId, row.id)).run();
  });
}

function setPref(s: Services, h: ProjectHandle, key: string, patch: { currentWorkspaceId?: string | null; assignedWorkspaceId?: string | null }): void {
  const now = iso(s.clock.now());
  h.db
    .insert(workspacePrefs)
    .values({ principal: key, currentWorkspaceId: null, assignedWorkspaceId: null, ...patch, updatedAt: now })
    .onConflictDoUpdate({ target: workspacePrefs.principal, set: { ...patch, updatedAt: now } })
    .run();
}

/** `PUT /v2/workspaces/current { workspaceId }`: the caller's own choice; null goes back to assigned or default. */
export function setCurrent(s: Services, h: ProjectHandle, p: Principal, body: Static<typeof CurrentWorkspaceBody>) {
  if (body.workspaceId === null) {
    setPref(s, h, principalKey(p), { currentWorkspaceId: null });
    return null;
  }
  const row = workspaceOrFail(h, p, body.workspaceId);
  setPref(s, h, principalKey(p), { currentWorkspaceId: row.id });
  return recordFor(h, p, row);
}

/** `PUT /v2/workspaces/:id/default`: the project's default workspace (team workspaces only). */
export function setDefault(h: ProjectHandle, p: Principal, id: string) {
  const row = workspaceOrFail(h, p, id);
  if (row.visibility !== "team") badField("id", "Only a team workspace can be the project's default");
  h.db
    .insert(settings)
    .values({ name: DEFAULT_SETTING, value: row.id })
    .onConflictDoUpdate({ target: settings.name, set: { value: row.id } })
    .run();
  return recordFor(h, p, row);
}

/** `GET /v2/workspaces/:id/assign`: the members assigned this workspace, in the form `PUT .../assign` answers. */
export function assignedMembers(s: Services, h: ProjectHandle, p: Principal, id: string) {
  const row = workspaceOrFail(h, p, id);
  return { workspaceId: row.id, userIds: assignedUserIds(s, h, row.id) };
}

/** The members (still in the project) assigned a workspace, sorted. */
function assignedUserIds(s: Services, h: ProjectHandle, workspaceId: string): string[] {
  const prefs = h.db.select().from(workspacePrefs).where(eq(workspacePrefs.assignedWorkspaceId, workspaceId)).all();
  const ids = prefs.filter((r) => r.principal.startsWith("user:")).map((r) => r.principal.slice("user:".length));
  return ids.filter((u) => membershipOf(s, h.id, u)).sort();
}

/**
 * `PUT /v2/workspaces/:id/assign { userIds }`: the members who are assigned this workspace (the
 * list replaces the previous one). A member has one assigned workspace; assigning another moves them.
 */
export function assignWorkspace(s: Services, h: ProjectHandle, p: Principal, id: string, body: Static<typeof AssignBody>) {
  const row = workspaceOrFail(h, p, id);
  if (row.visibility !== "team") badField("id", "Only a team workspace can be assigned to members");
  const list = body.userIds;
  const ids = list.map((u, i) => {
    if (!isUuid(u) || !membershipOf(s, h.id, u.toLowerCase())) badField(`userIds[${i}]`, `userIds[${i}] is not a member of this project`);
    return u.toLowerCase();
  });
  const wanted = new Set(ids);
  write(s, h, () => {
    for (const pref of h.db.select().from(workspacePrefs).where(eq(workspacePrefs.assignedWorkspaceId, row.id)).all()) {
      if (!wanted.has(pref.principal.slice("user:".length))) setPref(s, h, pref.principal, { assignedWorkspaceId: null });
    }
    for (const u of wanted) setPref(s, h, `user:${u}`, { assignedWorkspaceId: row.id });
  });
  return { workspaceId: row.id, userIds: [...wanted].sort() };
}
