// Scheduled publishing under /v2/scheduled-actions, mounted for people and again under
// /v2/agent for legacy keys (interface.md, Management routes: Scheduled publishing, Agent mount).
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { mounts, type Mount } from "./auth.ts";
import { jsonBody } from "./body.ts";
import { once } from "./idempotency.ts";
import { actorOf } from "./entries.ts";
import { projectOf, requirePerson, requireScope } from "../../domain/access/principal.ts";
import { cancelAction, cancelBatch, rescheduleAction, rescheduleBatch, retryAction, scheduleActions, setDefaults } from "../../domain/scheduling/service.ts";
import { defaults, failures, getAction, getBatch, listActions } from "../../domain/scheduling/queries.ts";

function group(s: Services, m: Mount) {
  const ctx = async (request: Request, scope: string) => {
    const p = await m.auth(request);
    requireScope(p, scope);
    return { p, h: s.projects.get(projectOf(p)) };
  };
  return new Elysia({ prefix: `${m.prefix}/scheduled-actions` })
    .post("/", async ({ request, set }) => {
      const { p, h } = await ctx(request, "instance:publish");
      const body = await jsonBody(request);
      return once(s, h, p, request, body, set, () => ({ status: 201, body: scheduleActions(s, h, p, actorOf(p), body) }));
    })
    .get("/", async ({ request, query }) => {
      const { h } = await ctx(request, "instance:read");
      return listActions(h, query);
    })
    .get("/failures", async ({ request }) => {
      const { h } = await ctx(request, "instance:read");
      return failures(s, h);
    })
    .get("/defaults", async ({ request }) => {
      const { p } = await ctx(request, "instance:read");
      return defaults(s, projectOf(p));
    })
    .put("/defaults", async ({ request }) => {
      // A project setting: owners and admins only, never a key (interface.md, Scope grammar).
      const p = await m.auth(request);
      requirePerson(p, "settings:update");
      return setDefaults(s, projectOf(p), await jsonBody(request));
    })
    .get("/batch/:batchId", async ({ request, params }) => {
      const { h } = await ctx(request, "instance:read");
      return getBatch(h, params.batchId);
    })
    .patch("/batch/:batchId", async ({ request, params }) => {
      const { h } = await ctx(request, "instance:publish");
      return rescheduleBatch(s, h, params.batchId, await jsonBody(request));
    })
    .post("/batch/:batchId/cancel", async ({ request, params, set }) => {
      const { p, h } = await ctx(request, "instance:publish");
      const body = await jsonBody(request);
      return once(s, h, p, request, body, set, () => ({ status: 200, body: cancelBatch(s, h, params.batchId) }));
    })
    .get("/:id", async ({ request, params }) => {
      const { h } = await ctx(request, "instance:read");
      return getAction(h, params.id);
    })
    .patch("/:id", async ({ request, params }) => {
      const { h } = await ctx(request, "instance:publish");
      return rescheduleAction(s, h, params.id, await jsonBody(request));
    })
    .post("/:id/cancel", async ({ request, params, set }) => {
      const { p, h } = await ctx(request, "instance:publish");
      const body = await jsonBody(request);
      return once(s, h, p, request, body, set, () => ({ status: 200, body: cancelAction(s, h, params.id) }));
    })
    .post("/:id/retry", async ({ request, params, set }) => {
      const { p, h } = await ctx(request, "instance:publish");
      const body = await jsonBody(request);
      return once(s, h, p, request, body, set, () => ({ status: 201, body: retryAction(s, h, p, actorOf(p), params.id, body) }));
    });
}

/** Scheduled publishing on both mounts. */
export function schedulingRoutes(s: Services) {
  const app = new Elysia();
  for (const m of mounts(s)) app.use(group(s, m));
  return app;
}
