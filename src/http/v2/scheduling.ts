// Scheduled publishing under /v2/scheduled-actions, mounted for people and again under
// /v2/agent for legacy keys (interface.md, Management routes: Scheduled publishing, Agent mount).
import { type AnyElysia, Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { managementAuth, MOUNTS, once, type Mount } from "../plugins/management.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import {
  ActionPage,
  ActionQuery,
  AnyBody,
  Batch,
  CancelledBatch,
  Defaults,
  DefaultsBody,
  Failures,
  RescheduleBody,
  Rescheduled,
  RetryBody,
  ScheduleBody,
  Scheduled,
  ScheduledAction,
} from "../../domain/scheduling/bodies.ts";
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
          const body = await typedBody(request, ScheduleBody);
          return once(s, h, p, request, body, set, () => ({ status: 201, body: scheduleActions(s, h, p, actor, body) }));
        },
        {
          scope: "instance:publish",
          detail: doc({ summary: "Schedule a publish or unpublish of 1 to 500 entries or models", body: ScheduleBody, answers: { 201: Scheduled } }),
        },
      )
      .get(
        "/",
        ({ project: h, query }) => {
          return listActions(h, query);
        },
        { scope: "instance:read", detail: doc({ summary: "Scheduled actions, filtered and paged", query: ActionQuery, answers: { 200: ActionPage } }) },
      )
      .get(
        "/failures",
        ({ project: h }) => {
          return failures(s, h);
        },
        { scope: "instance:read", detail: doc({ summary: "Actions that failed in the last 7 days, and the latest", answers: { 200: Failures } }) },
      )
      .get(
        "/defaults",
        ({ project }) => {
          return defaults(s, project.id);
        },
        { scope: "instance:read", detail: doc({ summary: "The project's publishing time zone, or null", answers: { 200: Defaults } }) },
      )
      // A project setting: owners and admins only, never a key (interface.md, Scope grammar).
      .put("/defaults", async ({ project, request }) => setDefaults(s, project.id, await typedBody(request, DefaultsBody)), {
        person: "settings:update",
        detail: doc({ summary: "Set or clear the project's publishing time zone", body: DefaultsBody, answers: { 200: Defaults } }),
      })
      .get(
        "/batch/:batchId",
        ({ project: h, params }) => {
          return getBatch(h, params.batchId);
        },
        { scope: "instance:read", detail: doc({ summary: "A batch with a count per status", answers: { 200: Batch } }) },
      )
      .patch(
        "/batch/:batchId",
        async ({ project: h, request, params }) => {
          return rescheduleBatch(s, h, params.batchId, await typedBody(request, RescheduleBody));
        },
        {
          scope: "instance:publish",
          detail: doc({ summary: "A new time for a batch's pending actions", body: RescheduleBody, answers: { 200: Rescheduled } }),
        },
      )
      .post(
        "/batch/:batchId/cancel",
        async ({ principal: p, project: h, request, params, set }) => {
          const body = await typedBody(request, AnyBody);
          return once(s, h, p, request, body, set, () => ({ status: 200, body: cancelBatch(s, h, params.batchId) }));
        },
        { scope: "instance:publish", detail: doc({ summary: "Cancel a batch's pending actions", body: AnyBody, answers: { 200: CancelledBatch } }) },
      )
      .get(
        "/:id",
        ({ project: h, params }) => {
          return getAction(h, params.id);
        },
        { scope: "instance:read", detail: doc({ summary: "One scheduled action", answers: { 200: ScheduledAction } }) },
      )
      .patch(
        "/:id",
        async ({ project: h, request, params }) => {
          return rescheduleAction(s, h, params.id, await typedBody(request, RescheduleBody));
        },
        { scope: "instance:publish", detail: doc({ summary: "A new time for one pending action", body: RescheduleBody, answers: { 200: ScheduledAction } }) },
      )
      .post(
        "/:id/cancel",
        async ({ principal: p, project: h, request, params, set }) => {
          const body = await typedBody(request, AnyBody);
          return once(s, h, p, request, body, set, () => ({ status: 200, body: cancelAction(s, h, params.id) }));
        },
        { scope: "instance:publish", detail: doc({ summary: "Cancel a pending, failed or dead action", body: AnyBody, answers: { 200: ScheduledAction } }) },
      )
      .post(
        "/:id/retry",
        async ({ principal: p, project: h, actor, request, params, set }) => {
          const body = await typedBody(request, RetryBody);
          return once(s, h, p, request, body, set, () => ({ status: 201, body: retryAction(s, h, p, actor, params.id, body) }));
        },
        { scope: "instance:publish", detail: doc({ summary: "Retry a failed or dead action as a new action", body: RetryBody, answers: { 201: Scheduled } }) },
      )
  );
}

/** Scheduled publishing on both mounts. */
export function schedulingRoutes(s: Services) {
  const app = new Elysia();
  for (const m of MOUNTS) app.use(group(s, m));
  return app;
}
