// Authentication and context of management routes, as Elysia macros: a route declares what it
// needs and receives it resolved.
// - `scope: "<scope>"`: a person (on /v2) or a legacy key (on /v2/agent) holding the scope in the
//   project it acts in; resolves `{ principal, project, actor }`. The project file is held open
//   until the answer is sent, so waiting for the body never meets a closed file.
// - `person: "<scope>"`: as `scope`, but a key is refused (project settings, default workspaces).
// - `signedIn: true`: any signed-in person, no project needed (projects list, create).
// Each macro also writes who may call the route into its `detail`, for GET /v2/openapi.json.
import { Elysia } from "elysia";
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { actorOf, agentPrincipal, authenticatePerson, legacyKeyOf } from "../../domain/access/authenticate.ts";
import { projectOf, requirePerson, requireScope, type Principal } from "../../domain/access/principal.ts";
import { idempotent, type Answer } from "../../domain/idempotency/service.ts";
import { authDetail } from "../v2/doc.ts";

/** Where a group of management routes is mounted: `/v2` for people, `/v2/agent` for legacy keys. */
export type Mount = "/v2" | "/v2/agent";

/** Both mounts, for route groups the agent mount carries too (interface.md, Agent mount). */
export const MOUNTS: Mount[] = ["/v2", "/v2/agent"];

/** The authenticated caller of a management request on a mount, annotated for the request log. */
export async function callerOf(s: Services, mount: Mount, request: Request): Promise<Principal> {
  if (mount === "/v2/agent") {
    const key = legacyKeyOf(s, request.headers);
    s.requests.annotate(request, { keyId: key.row.id, projectId: key.row.projectId });
    return agentPrincipal(key);
  }
  const p = await authenticatePerson(s, request.headers);
  s.requests.annotate(request, { projectId: p.projectId });
  return p;
}

/** What a management route receives. */
export interface ManagementContext {
  principal: Principal;
  project: ProjectHandle;
  actor: string;
}

/** The management macros for routes of one mount. */
export function managementAuth(s: Services, mount: Mount) {
  const inProject = async (request: Request, check: (p: Principal) => void) => {
    const principal = await callerOf(s, mount, request);
    check(principal);
    return { principal, project: s.projects.hold(projectOf(principal)), actor: actorOf(principal) };
  };
  // The context of afterResponse holds what resolve returned, when it got that far.
  const release = (project: ProjectHandle | undefined) => {
    if (project) s.projects.release(project);
  };
  return new Elysia().macro({
    scope: (scope: string) => ({
      detail: authDetail({ kind: "scope", scope }),
      resolve: ({ request }) => inProject(request, (p) => requireScope(p, scope)),
      afterResponse: (ctx) => release((ctx as { project?: ProjectHandle }).project),
    }),
    person: (scope: string) => ({
      detail: authDetail({ kind: "person", scope }),
      resolve: ({ request }) => inProject(request, (p) => requirePerson(p, scope)),
      afterResponse: (ctx) => release((ctx as { project?: ProjectHandle }).project),
    }),
    signedIn: (on: boolean) => ({
      detail: authDetail({ kind: "signedIn" }),
      async resolve({ request }) {
        const principal = await callerOf(s, mount, request);
        if (!on || principal.kind !== "user") fail("insufficient_permissions");
        return { person: principal };
      },
    }),
  });
}

// The Idempotency-Key header on the POST routes of scheduling, bulk and publishing now.
type Set = { status?: number | string; headers: Record<string, string | number> };

/**
 * Runs `act` under the request's Idempotency-Key (when sent) and writes its status to `set`.
 * A replayed answer carries `Idempotency-Replayed: true`.
 */
export function once(s: Services, h: ProjectHandle, p: Principal, request: Request, body: unknown, set: Set, act: () => Answer): unknown {
  const r = idempotent(
    s,
    h,
    {
      principal: actorOf(p),
      key: request.headers.get("idempotency-key"),
      method: request.method,
      path: new URL(request.url).pathname,
      body,
    },
    act,
  );
  set.status = r.status;
  if (r.replayed) set.headers["idempotency-replayed"] = "true";
  return r.body;
}
