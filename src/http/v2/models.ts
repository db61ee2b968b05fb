// Models under /v2/models, and /v2/projects/resolve (admin URL parts to ids).
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import { CreateModelBody, DeleteModelBody, ModelList, ModelRecord, Resolved, ResolveQuery, UpdateModelBody } from "../../domain/models/bodies.ts";
import { managementAuth } from "../plugins/management.ts";
import { createModel, deleteModel, updateModel } from "../../domain/models/service.ts";
import { allModels, modelOrFail, modelRecord } from "../../domain/models/catalog.ts";
import { resolveAdminUrl } from "../../domain/projects/resolve.ts";

export function modelRoutes(s: Services) {
  return new Elysia()
    .use(managementAuth(s, "/v2"))
    .get("/v2/models", ({ project }) => ({ data: allModels(project).list.map(modelRecord) }), {
      scope: "model:read",
      detail: doc({ summary: "The project's models", answers: { 200: ModelList } }),
    })
    .post(
      "/v2/models",
      async ({ project, actor, request, set }) => {
        const m = createModel(s, project, await typedBody(request, CreateModelBody), actor);
        set.status = 201;
        return modelRecord(m);
      },
      { scope: "model:create", detail: doc({ summary: "Create a model with its fields", body: CreateModelBody, answers: { 201: ModelRecord } }) },
    )
    .get("/v2/models/:id", ({ project, params }) => modelRecord(modelOrFail(project, params.id, "id")), {
      scope: "model:read",
      detail: doc({ summary: "One model by id or namespace, with its layout", answers: { 200: ModelRecord } }),
    })
    .patch(
      "/v2/models/:id",
      async ({ project, actor, request, params }) => modelRecord(updateModel(s, project, params.id, await typedBody(request, UpdateModelBody), actor)),
      {
        scope: "model:update",
        detail: doc({ summary: "Edit a model: a new model version", body: UpdateModelBody, answers: { 200: ModelRecord } }),
      },
    )
    .delete(
      "/v2/models/:id",
      async ({ project, actor, request, params, set }) => {
        const body = await typedBody(request, DeleteModelBody);
        deleteModel(s, project, params.id, body.namespace, actor);
        set.status = 204;
        return null;
      },
      {
        scope: "model:delete",
        detail: doc({ summary: "Delete a model and its entries (its namespace repeated to confirm)", body: DeleteModelBody, answers: { 204: null } }),
      },
    )
    .get("/v2/projects/resolve", ({ principal, project, query }) => resolveAdminUrl(project, principal, query), {
      scope: "model:read",
      detail: doc({ summary: "Turn the model and entry parts of an admin URL into ids", query: ResolveQuery, answers: { 200: Resolved } }),
    });
}
