// Entry layouts under /v2/models/:id/layout, on both mounts. GET /v2/models/:id (the model with
// its layout) lives with the models routes; the agent mount's copy of it is served here.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { mounts, type Mount } from "./auth.ts";
import { jsonBody } from "./body.ts";
import { projectOf, requireScope } from "../../domain/access/principal.ts";
import { modelOrFail, modelRecord } from "../../domain/models/service.ts";
import { deleteLayout, putLayout } from "../../domain/layouts/service.ts";

function layoutGroup(s: Services, m: Mount) {
  const ctx = async (request: Request, scope: string) => {
    const p = await m.auth(request);
    requireScope(p, scope);
    return s.projects.get(projectOf(p));
  };
  const group = new Elysia({ prefix: `${m.prefix}/models` })
    .put("/:id/layout", async ({ request, params }) => {
      const h = await ctx(request, "model:update");
      return modelRecord(putLayout(h, params.id, await jsonBody(request)));
    })
    .delete("/:id/layout", async ({ request, params, set }) => {
      const h = await ctx(request, "model:update");
      deleteLayout(h, params.id);
      set.status = 204;
      return null;
    });
  if (m.prefix === "/v2") return group;
  return group.get("/:id", async ({ request, params }) => {
    const h = await ctx(request, "model:read");
    return modelRecord(modelOrFail(h, params.id, "id"));
  });
}

/** The layout routes on every mount. */
export function layoutRoutes(s: Services) {
  const app = new Elysia();
  for (const m of mounts(s)) app.use(layoutGroup(s, m));
  return app;
}
