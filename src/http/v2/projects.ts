// Projects and members: /v2/projects...
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { fail } from "../../errors.ts";
import { authenticatePerson } from "./auth.ts";
import type { Replication } from "../../infra/replication.ts";
import { jsonBody } from "./body.ts";
import { requireScope, type Principal } from "../../domain/access/principal.ts";
import {
  addMember,
  createProject,
  deleteProject,
  getProject,
  listMembers,
  listProjects,
  membershipOf,
  removeMember,
  setCurrentProject,
  updateMember,
  updateProject,
  UUID,
} from "../../domain/projects/service.ts";

/** The caller as a member of the project named in the path (not the header's project). */
async function memberOf(s: Services, request: Request, projectId: string): Promise<Principal> {
  const p = await authenticatePerson(s, request);
  if (p.kind !== "user") fail("insufficient_permissions");
  const id = projectId.toLowerCase();
  const mem = UUID.test(id) ? membershipOf(s, id, p.userId) : undefined;
  if (!mem || !getProject(s, id)) fail("not_a_member");
  return { kind: "user", userId: p.userId, projectId: id, role: mem.role };
}

/** How long creation waits for the new project's first snapshot to reach the replica. */
const PROTECT_TIMEOUT_MS = 5_000;

export function projectRoutes(s: Services, replication?: Replication) {
  return new Elysia({ prefix: "/v2/projects" })
    .get("/", async ({ request }) => {
      const p = await authenticatePerson(s, request);
      if (p.kind !== "user") fail("insufficient_permissions");
      return { data: listProjects(s, p.userId) };
    })
    .post("/", async ({ request, set }) => {
      const p = await authenticatePerson(s, request);
      if (p.kind !== "user") fail("insufficient_permissions");
      const body = await jsonBody(request);
      const row = createProject(s, { name: body.name, slug: body.slug, ownerId: p.userId });
      // litestream-shards: acknowledge once the replica holds the project, or say it does not yet.
      const backup = replication ? await replication.protect(row.id, PROTECT_TIMEOUT_MS) : "off";
      set.status = 201;
      return { id: row.id, name: row.name, slug: row.slug, role: "owner", lastOpenedAt: row.createdAt, createdAt: row.createdAt, backup };
    })
    .put("/current", async ({ request }) => {
      const p = await authenticatePerson(s, request);
      if (p.kind !== "user") fail("insufficient_permissions");
      const body = await jsonBody(request);
      return setCurrentProject(s, p.userId, body.projectId);
    })
    .get("/:id", async ({ request, params }) => {
      const p = await memberOf(s, request, params.id);
      const row = getProject(s, p.projectId!)!;
      return { id: row.id, name: row.name, slug: row.slug, role: p.kind === "user" ? p.role : null, createdAt: row.createdAt, updatedAt: row.updatedAt };
    })
    .patch("/:id", async ({ request, params }) => {
      const p = await memberOf(s, request, params.id);
      requireScope(p, "settings:update");
      const body = await jsonBody(request);
      const row = updateProject(s, p.projectId!, { name: body.name, slug: body.slug });
      return { id: row.id, name: row.name, slug: row.slug, createdAt: row.createdAt, updatedAt: row.updatedAt };
    })
    .delete("/:id", async ({ request, params, set }) => {
      const p = await memberOf(s, request, params.id);
      requireScope(p, "project:delete");
      const body = await jsonBody(request);
      deleteProject(s, p.projectId!, body.slug);
      set.status = 204;
      return null;
    })
    .get("/:id/members", async ({ request, params }) => {
      const p = await memberOf(s, request, params.id);
      requireScope(p, "member:read");
      return { data: listMembers(s, p.projectId!) };
    })
    .post("/:id/members", async ({ request, params, set }) => {
      const p = await memberOf(s, request, params.id);
      requireScope(p, "member:update");
      const body = await jsonBody(request);
      set.status = 201;
      return addMember(s, p.projectId!, { email: body.email, role: body.role, password: body.password });
    })
    .patch("/:id/members/:userId", async ({ request, params }) => {
      const p = await memberOf(s, request, params.id);
      requireScope(p, "member:update");
      const body = await jsonBody(request);
      return updateMember(s, p.projectId!, params.userId, { role: body.role, password: body.password });
    })
    .delete("/:id/members/:userId", async ({ request, params, set }) => {
      const p = await memberOf(s, request, params.id);
      requireScope(p, "member:update");
      removeMember(s, p.projectId!, params.userId);
      set.status = 204;
      return null;
    });
}
