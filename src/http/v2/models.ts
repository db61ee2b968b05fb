// Models under /v2/models, and /v2/projects/resolve (admin URL parts to ids).
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { jsonBody } from "./body.ts";
import { managementAuth } from "../plugins/management.ts";
import { createModel, deleteModel, updateModel } from "../../domain/models/service.ts";
import { allModels, modelOrFail, modelRecord } from "../../domain/models/catalog.ts";
import { resolveAdminUrl } from "../../domain/projects/resolve.ts";

export function modelRoutes(s: Services) {
  return new Elysia()
    .use(managementAuth(s, "/v2"))
    .get("/v2/models", ({ project }) => ({ data: allModels(project).list.map(modelRecord) }), { scope: "model:read" })
    .post(
      "/v2/models",
      async ({ project, actor, request, set }) => {
        const m = createModel(s, project, await jsonBody(request), actor);
        set.status = 201;
        return modelRecord(m);
      },
      { scope: "model:create" },
    )
    .get("/v2/models/:id", ({ project, params }) => modelRecord(modelOrFail(project, params.id, "id")), { scope: "model:read" })
    .patch("/v2/models/:id", async ({ project, actor, request, params }) => modelRecord(updateModel(s, project, params.id, await jsonBody(request), actor)), {
      scope: "model:update",
    })
    .delete(
      "/v2/models/:id",
      async ({ project, actor, request, params, set }) => {
        const body = await jsonBody(request);
        deleteModel(s, project, params.id, body.namespace, actor);
        set.status = 204;
        return null;
      },
      { scope: "model:delete" },
    )
    .get("/v2/projects/resolve", ({ principal, project, query }) => resolveAdminUrl(project, principal, query), { scope: "model:read" });
}
