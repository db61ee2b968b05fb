// Entry layouts under /v2/models/:id/layout, on both mounts. GET /v2/models/:id (the model with
// its layout) lives with the models routes; the agent mount's copy of it is served here.
import { type AnyElysia, Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import { LayoutBody } from "../../domain/layouts/bodies.ts";
import { ModelRecord } from "../../domain/models/bodies.ts";
import { managementAuth, MOUNTS, type Mount } from "../plugins/management.ts";
import { modelOrFail, modelRecord } from "../../domain/models/catalog.ts";
import { deleteLayout, putLayout } from "../../domain/layouts/service.ts";

function layoutGroup(s: Services, mount: Mount): AnyElysia {
  const group = new Elysia({ prefix: `${mount}/models` })
    .use(managementAuth(s, mount))
    .put("/:id/layout", async ({ project, request, params }) => modelRecord(putLayout(project, params.id, await typedBody(request, LayoutBody))), {
      scope: "model:update",
      detail: doc({ summary: "Save the model's entry layout (live at once), or null for the plain editor", body: LayoutBody, answers: { 200: ModelRecord } }),
    })
    .delete(
      "/:id/layout",
      ({ project, params, set }) => {
        deleteLayout(project, params.id);
        set.status = 204;
        return null;
      },
      { scope: "model:update", detail: doc({ summary: "Back to the plain editor", answers: { 204: null } }) },
    );
  if (mount === "/v2") return group;
  return group.get("/:id", ({ project, params }) => modelRecord(modelOrFail(project, params.id, "id")), {
    scope: "model:read",
    detail: doc({ summary: "One model by id or namespace, with its layout", answers: { 200: ModelRecord } }),
  });
}

/** The layout routes on every mount. */
export function layoutRoutes(s: Services): AnyElysia {
  const app = new Elysia();
  for (const m of MOUNTS) app.use(layoutGroup(s, m));
  return app;
}
