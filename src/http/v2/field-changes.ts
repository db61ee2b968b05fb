// Field changes under /v2/models/:id/field-changes and /v2/field-changes/:id, on both mounts.
// Where field changes are switched off (CAPA_FIELD_CHANGES=off) every route answers 404 feature_disabled.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { fail } from "../../errors.ts";
import { mounts, type Mount } from "./auth.ts";
import { jsonBody } from "./body.ts";
import { projectOf, requireScope } from "../../domain/access/principal.ts";
import { applyChange, planChange } from "../../domain/field-changes/service.ts";
import { cancelChange, currentChange, getChange, listChanges, resumeChange } from "../../domain/field-changes/lifecycle.ts";

function fieldChangeGroup(s: Services, m: Mount) {
  const ctx = async (request: Request, scope: string) => {
    if (!s.config.fieldChanges) fail("feature_disabled");
    const p = await m.auth(request);
    requireScope(p, scope);
    return { p, h: s.projects.get(projectOf(p)) };
  };
  return new Elysia({ prefix: m.prefix })
    .post("/models/:id/field-changes/plan", async ({ request, params, set }) => {
      const { p, h } = await ctx(request, "model:update");
      const r = planChange(s, h, p, params.id, await jsonBody(request), m.prefix);
      set.status = r.status;
      return r.body;
    })
    .post("/models/:id/field-changes", async ({ request, params, set }) => {
      const { p, h } = await ctx(request, "model:update");
      const r = applyChange(s, h, p, params.id, await jsonBody(request), m.prefix);
      set.status = 202;
      return r;
    })
    .get("/models/:id/field-changes/current", async ({ request, params, set }) => {
      const { h } = await ctx(request, "model:read");
      const r = currentChange(h, params.id, m.prefix);
      if (r === null) set.status = 204;
      return r;
    })
    .get("/models/:id/field-changes", async ({ request, params, query }) => {
      const { h } = await ctx(request, "model:read");
      return listChanges(h, params.id, query, m.prefix);
    })
    .get("/field-changes/:id", async ({ request, params, query }) => {
      const { h } = await ctx(request, "model:read");
      return getChange(h, params.id, query, m.prefix);
    })
    .post("/field-changes/:id/cancel", async ({ request, params }) => {
      const { h } = await ctx(request, "model:update");
      return cancelChange(s, h, params.id, m.prefix);
    })
    .post("/field-changes/:id/resume", async ({ request, params }) => {
      const { h } = await ctx(request, "model:update");
      return resumeChange(s, h, params.id, await jsonBody(request), m.prefix);
    });
}

/** The field-change routes on every mount. */
export function fieldChangeRoutes(s: Services) {
  const app = new Elysia();
  for (const m of mounts(s)) app.use(fieldChangeGroup(s, m));
  return app;
}
