// Transferring ownership (issue 27, projects and people): an owner makes another member owner and
// becomes admin, in one transaction of the control file, so the project never has no owner and
// never two by accident. The only owner's row offers this instead of a role change or Remove.
import { and, eq } from "drizzle-orm";
import { memberships } from "../../storage/control/schema.ts";
import { badField, fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { Role } from "../access/roles.ts";
import { writeControl } from "../unit-of-work.ts";
import { listMembers, membershipOf, requireOwnerFor } from "./service.ts";

/** `POST /v2/projects/:id/transfer-ownership { userId }`: answers the members as they are after it. */
export function transferOwnership(s: Services, projectId: string, caller: { userId: string; role: Role }, targetId: string) {
  requireOwnerFor(caller.role, true);
  const id = targetId.toLowerCase();
  if (id === caller.userId) badField("userId", "userId names you: choose the member who becomes owner");
  const target = membershipOf(s, projectId, id);
  if (!target) fail("not_found", { message: "No member of this project has that id.", extra: { field: "userId" } });
  const setRole = (userId: string, role: Role) =>
    s.control.db
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.projectId, projectId), eq(memberships.userId, userId)))
      .run();
  writeControl(s, () => {
    setRole(id, "owner");
    setRole(caller.userId, "admin");
  });
  return { data: listMembers(s, projectId) };
}
