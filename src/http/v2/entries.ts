// Entries under /v2/model-instances: drafts, versions, delete (people), publishing now
// (`/:id/publish`, `/:id/unpublish`, `/:id/scheduled`) on both mounts (interface.md, Publishing
// now), and `GET /:id` on the agent mount, where events' `links.self` point.
import { type AnyElysia, Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { jsonBody } from "./body.ts";
import { managementAuth, MOUNTS, once, type Mount } from "../plugins/management.ts";
import { createEntry, deleteEntry, getEntry, updateEntry } from "../../domain/entries/service.ts";
import { listVersions, restoreVersion } from "../../domain/entries/versions.ts";
import { ifMatchVersion } from "../../domain/entries/conflicts.ts";
import { listEntries } from "../../domain/entries/list.ts";
import { publishEntry, unpublishEntry } from "../../domain/entries/publish.ts";
import { entryActions } from "../../domain/scheduling/queries.ts";

/** Drafts, versions and delete: people only. */
function drafts(s: Services): AnyElysia {
  return new Elysia({ prefix: "/v2/model-instances" })
    .use(managementAuth(s, "/v2"))
    .get("/", ({ project, query }) => listEntries(project, query), { scope: "instance:read" })
    .post(
      "/",
      async ({ project, actor, request, set }) => {
        const e = createEntry(s, project, actor, await jsonBody(request));
        set.status = 201;
        return e;
      },
      { scope: "instance:create" },
    )
    .get("/:id", ({ project, params }) => getEntry(project, params.id), { scope: "instance:read" })
    .patch(
      "/:id",
      async ({ project, actor, request, params }) =>
        updateEntry(s, project, actor, params.id, await jsonBody(request), ifMatchVersion(request.headers.get("if-match"))),
      {
        scope: "instance:update",
      },
    )
    .delete(
      "/:id",
      ({ project, actor, params, set }) => {
        deleteEntry(s, project, actor, params.id);
        set.status = 204;
        return null;
      },
      { scope: "instance:delete" },
    )
    .get("/:id/versions", ({ project, params }) => ({ data: listVersions(project, params.id) }), { scope: "instance:read" })
    .post(
      "/:id/versions/:versionId/restore",
      ({ project, actor, request, params }) => restoreVersion(s, project, actor, params.id, params.versionId, ifMatchVersion(request.headers.get("if-match"))),
      { scope: "instance:update" },
    );
}

/** Publishing now, on one mount. */
function publishing(s: Services, mount: Mount): AnyElysia {
  return new Elysia({ prefix: `${mount}/model-instances` })
    .use(managementAuth(s, mount))
    .post(
      "/:id/publish",
      async ({ principal, project, actor, request, params, set }) => {
        const body = await jsonBody(request);
        const expected = ifMatchVersion(request.headers.get("if-match"));
        return once(s, project, principal, request, body, set, () => ({
          status: 200,
          body: publishEntry(s, project, actor, params.id, body.versionId, { expected }),
        }));
      },
      { scope: "instance:publish" },
    )
    .post(
      "/:id/unpublish",
      async ({ principal, project, actor, request, params, set }) => {
        const body = await jsonBody(request);
        return once(s, project, principal, request, body, set, () => ({ status: 200, body: unpublishEntry(s, project, actor, params.id) }));
      },
      { scope: "instance:publish" },
    )
    .get(
      "/:id/scheduled",
      ({ project, params }) => {
        const e = getEntry(project, params.id);
        return entryActions(project, { id: e.id, modelId: e.modelId });
      },
      { scope: "instance:read" },
    );
}

/**
 * One entry for a key on the agent mount: the resource an event's `links.self` names
 * (interface.md, Events), so a webhook consumer holding an agent key can follow it.
 */
function agentEntry(s: Services): AnyElysia {
  return new Elysia({ prefix: "/v2/agent/model-instances" })
    .use(managementAuth(s, "/v2/agent"))
    .get("/:id", ({ project, params }) => getEntry(project, params.id), { scope: "instance:read" });
}

/** Every entry route: drafts for people, publishing now on both mounts, one entry for keys. */
export function entryRoutes(s: Services): AnyElysia {
  const app = new Elysia().use(drafts(s));
  for (const m of MOUNTS) app.use(publishing(s, m));
  return app.use(agentEntry(s));
}
