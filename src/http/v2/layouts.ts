// Entry layouts under /v2/models/:id/layout, on both mounts. GET /v2/models/:id (the model with
// its layout) lives with the models routes; the agent mount's copy of it is served here.
import { type AnyElysia, Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { jsonBody } from "./body.ts";
import { managementAuth, MOUNTS, type Mount } from "../plugins/management.ts";
import { modelOrFail, modelRecord } from "../../domain/models/catalog.ts";
import { deleteLayout, putLayout } from "../../domain/layouts/service.ts";

function layoutGroup(s: Services, mount: Mount): AnyElysia {
  const group = new Elysia({ prefix: `${mount}/models` })
    .use(managementAuth(s, mount))
    .put("/:id/layout", async ({ project, request, params }) => modelRecord(putLayout(project, params.id, await jsonBody(request))), { scope: "model:update" })
    .delete(
      "/:id/layout",
      ({ project, params, set }) => {
        deleteLayout(project, params.id);
        set.status = 204;
        return null;
      },
      { scope: "model:update" },
    );
  if (mount === "/v2") return group;
  return group.get("/:id", ({ project, params }) => modelRecord(modelOrFail(project, params.id, "id")), { scope: "model:read" });
}

/** The layout routes on every mount. */
export function layoutRoutes(s: Services): AnyElysia {
  const app = new Elysia();
  for (const m of MOUNTS) app.use(layoutGroup(s, m));
  return app;
}
