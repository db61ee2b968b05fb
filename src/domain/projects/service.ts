// Projects and memberships. A project is a row in the control file plus its own SQLite file;
// the creator becomes its owner.
import { and, eq, desc } from "drizzle-orm";
import { projects, memberships, users, apiKeys } from "../../storage/control/schema.ts";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { Role } from "../access/roles.ts";
import { checkValue } from "../access/body-check.ts";
import { ProjectName, Slug } from "./bodies.ts";
import { writeControl } from "../unit-of-work.ts";
import { purgeProject } from "../edge/changes.ts";

export type Project = typeof projects.$inferSelect;

/** Checks a slug against the rules of interface.md (3 to 48 characters, lowercase, single hyphens): the body model's rule, for the CLI too. */
export function checkSlug(slug: unknown): string {
  checkValue(Slug, slug, "slug");
  return slug as string;
}

/** A project's name (1 to 120 characters with more than spaces), trimmed. */
export function checkName(name: unknown): string {
  checkValue(ProjectName, name, "name");
  return (name as string).trim();
}

function slugFrom(name: string): string {
  let base = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  if (base.length < 3) base = `project-${base}`.replace(/-+$/, "");
  return base;
}

export function getProject(s: Services, id: string): Project | undefined {
  return s.control.db.select().from(projects).where(eq(projects.id, id)).get();
}

export function getProjectByIdOrSlug(s: Services, ref: string): Project | undefined {
  return getProject(s, ref) ?? s.control.db.select().from(projects).where(eq(projects.slug, ref)).get();
}

function slugTaken(s: Services, slug: string, exceptId?: string): boolean {
  const row = s.control.db.select({ id: projects.id }).from(projects).where(eq(projects.slug, slug)).get();
  return !!row && row.id !== exceptId;
}

/** Creates a project, its file, and the owner's membership. */
export function createProject(s: Services, input: { name: unknown; slug?: unknown; ownerId: string }): Project {
  const name = checkName(input.name);
  let slug: string;
  if (input.slug !== undefined && input.slug !== null) {
    slug = checkSlug(input.slug);
    if (slugTaken(s, slug)) fail("slug_taken", { extra: { field: "slug" } });
  } else {
    const base = slugFrom(name);
    slug = base;
    for (let i = 2; slugTaken(s, slug); i++) slug = `${base}-${i}`;
  }
  const now = iso(s.clock.now());
  const row: Project = { id: s.ids.uuid(), name, slug, subscriptionActive: true, timezone: null, createdAt: now, updatedAt: now };
  writeControl(s, () => {
    s.control.db.insert(projects).values(row).run();
    s.control.db.insert(memberships).values({ projectId: row.id, userId: input.ownerId, role: "owner", lastOpenedAt: now, createdAt: now }).run();
    s.control.db.update(users).set({ lastProjectId: row.id }).where(eq(users.id, input.ownerId)).run();
  });
  // Opening the file creates and migrates it now rather than on the first read.
  s.projects.get(row.id);
  return row;
}

/** The projects a person belongs to, most recently opened first. */
export function listProjects(s: Services, userId: string) {
  return s.control.db
    .select({ id: projects.id, name: projects.name, slug: projects.slug, role: memberships.role, lastOpenedAt: memberships.lastOpenedAt })
    .from(memberships)
    .innerJoin(projects, eq(projects.id, memberships.projectId))
    .where(eq(memberships.userId, userId))
    .orderBy(desc(memberships.lastOpenedAt), projects.name)
    .all();
}

export function membershipOf(s: Services, projectId: string, userId: string): { role: Role } | undefined {
  const row = s.control.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.projectId, projectId), eq(memberships.userId, userId)))
    .get();
  return row as { role: Role } | undefined;
}

/** Renames a project or changes its slug. */
export function updateProject(s: Services, id: string, input: { name?: unknown; slug?: unknown }): Project {
  const patch: Partial<Project> = {};
  if (input.name !== undefined) patch.name = checkName(input.name);
  if (input.slug !== undefined) {
    patch.slug = checkSlug(input.slug);
    if (slugTaken(s, patch.slug, id)) fail("slug_taken", { extra: { field: "slug" } });
  }
  if (Object.keys(patch).length === 0) badField("slug", "send slug or name to change");
  patch.updatedAt = iso(s.clock.now());
  writeControl(s, () => {
    s.control.db.update(projects).set(patch).where(eq(projects.id, id)).run();
    // Project settings purge the whole project at the edge (decisions.md 14).
    purgeProject(s, id);
  });
  evictProjectKeys(s, id);
  return getProject(s, id)!;
}

/** Deletes a project: its rows in the control file, its keys and its file. The slug must be typed to confirm. */
export function deleteProject(s: Services, id: string, confirmSlug: unknown): void {
  const p = getProject(s, id);
  if (!p) fail("not_found", { message: "No such project." });
  if (confirmSlug !== p.slug)
    fail("confirmation_mismatch", { message: "Type the project's slug in the body as { slug } to confirm.", extra: { field: "slug" } });
  const keyIds = s.control.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.projectId, id)).all();
  writeControl(s, () => {
    s.control.db.delete(memberships).where(eq(memberships.projectId, id)).run();
    s.control.db.delete(apiKeys).where(eq(apiKeys.projectId, id)).run();
    s.control.db.update(users).set({ lastProjectId: null }).where(eq(users.lastProjectId, id)).run();
    s.control.db.delete(projects).where(eq(projects.id, id)).run();
    purgeProject(s, id);
  });
  for (const k of keyIds) s.changes.key(k.id);
  s.projects.remove(id);
}

/** Sets a person's last-opened project (they must belong to it). */
export function setCurrentProject(s: Services, userId: string, ref: string): { projectId: string } {
  // Ids are stored in lower case; the header accepts either case, so this does too.
  const projectId = ref.toLowerCase();
  if (!membershipOf(s, projectId, userId)) fail("not_a_member");
  const now = iso(s.clock.now());
  writeControl(s, () => {
    s.control.db.update(users).set({ lastProjectId: projectId }).where(eq(users.id, userId)).run();
    s.control.db
      .update(memberships)
      .set({ lastOpenedAt: now })
      .where(and(eq(memberships.projectId, projectId), eq(memberships.userId, userId)))
      .run();
  });
  return { projectId };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Members of a project. */
export function listMembers(s: Services, projectId: string) {
  return s.control.db
    .select({ userId: users.id, email: users.email, name: users.name, role: memberships.role, createdAt: memberships.createdAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.projectId, projectId))
    .orderBy(memberships.createdAt)
    .all();
}

/**
 * Ownership is the owner's alone (decisions.md section 2): only an owner grants `owner`, changes
 * an owner's role or removes an owner; anything else is refused as a person's 403.
 */
export function requireOwnerFor(actorRole: Role, touchesOwnership: boolean): void {
  if (touchesOwnership && actorRole !== "owner") fail("insufficient_permissions", { extra: { required: ["owner"], current: actorRole } });
}

/** The refusal of demoting or removing the only owner, with the way out. */
export const LAST_OWNER = "A project needs at least one owner: make another member owner first (Transfer ownership), or delete the project.";

function ownersLeft(s: Services, projectId: string, exceptUserId: string): number {
  return listMembers(s, projectId).filter((m) => m.role === "owner" && m.userId !== exceptUserId).length;
}

/**
 * Changes a member's role; the last owner cannot be demoted. A password is never set here: the
 * account may belong to other projects, so an admin of this one setting it would take them over.
 */
export function updateMember(s: Services, projectId: string, actorRole: Role, userId: string, input: { role: Role }) {
  // The body's model (MemberBody) refuses a password and names the role.
  const role = input.role;
  const m = membershipOf(s, projectId, userId);
  if (!m) fail("not_found", { message: "No such member." });
  requireOwnerFor(actorRole, role === "owner" || m.role === "owner");
  if (m.role === "owner" && role !== "owner" && ownersLeft(s, projectId, userId) === 0) {
    fail("conflict", { message: LAST_OWNER, extra: { field: "role" } });
  }
  s.control.db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.projectId, projectId), eq(memberships.userId, userId)))
    .run();
  return listMembers(s, projectId).find((x) => x.userId === userId)!;
}

/** Removes a member; the last owner cannot be removed. */
export function removeMember(s: Services, projectId: string, actorRole: Role, userId: string): void {
  const m = membershipOf(s, projectId, userId);
  if (!m) fail("not_found", { message: "No such member." });
  requireOwnerFor(actorRole, m.role === "owner");
  if (m.role === "owner" && ownersLeft(s, projectId, userId) === 0) fail("conflict", { message: LAST_OWNER });
  s.control.db
    .delete(memberships)
    .where(and(eq(memberships.projectId, projectId), eq(memberships.userId, userId)))
    .run();
  s.control.db
    .update(users)
    .set({ lastProjectId: null })
    .where(and(eq(users.id, userId), eq(users.lastProjectId, projectId)))
    .run();
}

/** Turns the per-project subscription flag on or off (CLI). */
export function setSubscription(s: Services, projectId: string, active: boolean): void {
  writeControl(s, () => {
    s.control.db.update(projects).set({ subscriptionActive: active }).where(eq(projects.id, projectId)).run();
    // Without a subscription every read answers 402: nothing the edge kept may still be served.
    purgeProject(s, projectId);
  });
  evictProjectKeys(s, projectId);
}

/** Tells the key cache that the project facts its keys carry (name, subscription) changed. */
function evictProjectKeys(s: Services, projectId: string): void {
  for (const k of s.control.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.projectId, projectId)).all()) s.changes.key(k.id);
}
