// Models under /v2/models, and /v2/projects/resolve (admin URL parts to ids).
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { badField, fail } from "../../errors.ts";
import { authenticatePerson } from "./auth.ts";
import { jsonBody } from "./body.ts";
import { projectOf, requireScope } from "../../domain/access/principal.ts";
import { allModels, createModel, deleteModel, findModel, modelOrFail, modelRecord, updateModel } from "../../domain/models/service.ts";
import { isUuid } from "../../domain/models/fields.ts";
import { actorOf } from "./entries.ts";

export function modelRoutes(s: Services) {
  const ctx = async (request: Request, scope: string) => {
    const p = await authenticatePerson(s, request);
    requireScope(p, scope);
    return { p, h: s.projects.get(projectOf(p)) };
  };
  return new Elysia()
    .get("/v2/models", async ({ request }) => {
      const { h } = await ctx(request, "model:read");
      return { data: allModels(h).list.map(modelRecord) };
    })
    .post("/v2/models", async ({ request, set }) => {
      const { p, h } = await ctx(request, "model:create");
      const m = createModel(s, h, await jsonBody(request), actorOf(p));
      set.status = 201;
      return modelRecord(m);
    })
    .get("/v2/models/:id", async ({ request, params }) => {
      const { h } = await ctx(request, "model:read");
      return modelRecord(modelOrFail(h, params.id, "id"));
    })
    .patch("/v2/models/:id", async ({ request, params }) => {
      const { p, h } = await ctx(request, "model:update");
      return modelRecord(updateModel(s, h, params.id, await jsonBody(request), actorOf(p)));
    })
    .delete("/v2/models/:id", async ({ request, params, set }) => {
      const { p, h } = await ctx(request, "model:delete");
      const body = await jsonBody(request);
      deleteModel(s, h, params.id, body.namespace, actorOf(p));
      set.status = 204;
      return null;
    })
    .get("/v2/projects/resolve", async ({ request, query }) => {
      const { p, h } = await ctx(request, "model:read");
      if (typeof query.model !== "string" || query.model === "") badField("model", "model must be a model namespace or id");
      const m = findModel(h, query.model);
      if (!m) fail("not_found", { message: `No model "${query.model}" in this project.`, extra: { field: "model" } });
      let entry: { id: string } | null = null;
      if (query.entry !== undefined) {
        requireScope(p, "instance:read");
        if (!isUuid(query.entry)) badField("entry", "entry must be an entry id (UUID)");
        const row = h.sqlite.query("SELECT id FROM entries WHERE id = ? AND model_id = ?").get(query.entry.toLowerCase(), m.id) as { id: string } | null;
        if (!row) fail("not_found", { message: "No such entry in that model.", extra: { field: "entry" } });
        entry = { id: row.id };
      }
      return { projectId: h.id, model: { id: m.id, namespace: m.namespace }, entry };
    });
}
