// Scheduled publishing under /v2/scheduled-actions, mounted for people and again under
// /v2/agent for legacy keys (interface.md, Management routes: Scheduled publishing, Agent mount).
import { type AnyElysia, Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { managementAuth, MOUNTS, once, type Mount } from "../plugins/management.ts";
import { jsonBody } from "./body.ts";
import { cancelAction, cancelBatch } from "../../domain/scheduling/cancel.ts";
import { rescheduleAction, rescheduleBatch } from "../../domain/scheduling/reschedule.ts";
import { retryAction, scheduleActions, setDefaults } from "../../domain/scheduling/service.ts";
import { defaults, failures, getAction, getBatch, listActions } from "../../domain/scheduling/queries.ts";

function group(s: Services, mount: Mount): AnyElysia {
  return (
    new Elysia({ prefix: `${mount}/scheduled-actions` })
      .use(managementAuth(s, mount))
      .post(
        "/",
        async ({ principal: p, project: h, actor, request, set }) => {
          const body = await jsonBody(request);
          return once(s, h, p, request, body, set, () => ({ status: 201, body: scheduleActions(s, h, p, actor, body) }));
        },
        { scope: "instance:publish" },
      )
      .get(
        "/",
        ({ project: h, query }) => {
          return listActions(h, query);
        },
        { scope: "instance:read" },
      )
      .get(
        "/failures",
        ({ project: h }) => {
          return failures(s, h);
        },
        { scope: "instance:read" },
      )
      .get(
        "/defaults",
        ({ project }) => {
          return defaults(s, project.id);
        },
        { scope: "instance:read" },
      )
      // A project setting: owners and admins only, never a key (interface.md, Scope grammar).
      .put("/defaults", async ({ project, request }) => setDefaults(s, project.id, await jsonBody(request)), { person: "settings:update" })
      .get(
        "/batch/:batchId",
        ({ project: h, params }) => {
          return getBatch(h, params.batchId);
        },
        { scope: "instance:read" },
      )
      .patch(
        "/batch/:batchId",
        async ({ project: h, request, params }) => {
          return rescheduleBatch(s, h, params.batchId, await jsonBody(request));
        },
        { scope: "instance:publish" },
      )
      .post(
        "/batch/:batchId/cancel",
        async ({ principal: p, project: h, request, params, set }) => {
          const body = await jsonBody(request);
          return once(s, h, p, request, body, set, () => ({ status: 200, body: cancelBatch(s, h, params.batchId) }));
        },
        { scope: "instance:publish" },
      )
      .get(
        "/:id",
        ({ project: h, params }) => {
          return getAction(h, params.id);
        },
        { scope: "instance:read" },
      )
      .patch(
        "/:id",
        async ({ project: h, request, params }) => {
          return rescheduleAction(s, h, params.id, await jsonBody(request));
        },
        { scope: "instance:publish" },
      )
      .post(
        "/:id/cancel",
        async ({ principal: p, project: h, request, params, set }) => {
          const body = await jsonBody(request);
          return once(s, h, p, request, body, set, () => ({ status: 200, body: cancelAction(s, h, params.id) }));
        },
        { scope: "instance:publish" },
      )
      .post(
        "/:id/retry",
        async ({ principal: p, project: h, actor, request, params, set }) => {
          const body = await jsonBody(request);
          return once(s, h, p, request, body, set, () => ({ status: 201, body: retryAction(s, h, p, actor, params.id, body) }));
        },
        { scope: "instance:publish" },
      )
  );
}

/** Scheduled publishing on both mounts. */
export function schedulingRoutes(s: Services) {
  const app = new Elysia();
  for (const m of MOUNTS) app.use(group(s, m));
  return app;
}
