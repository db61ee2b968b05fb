// Field changes under /v2/models/:id/field-changes and /v2/field-changes/:id, on both mounts.
// Where field changes are switched off (CAPA_FIELD_CHANGES=off) every route answers 404
// feature_disabled, before authentication (so the answer does not depend on who asks).
import { type AnyElysia, Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { fail } from "../../errors.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import {
  ApplyBody,
  ChangeListQuery,
  FailuresQuery,
  FieldChange,
  FieldChangePage,
  FieldChangeWithFailures,
  Plan,
  PlanBody,
  ResumeBody,
} from "../../domain/field-changes/bodies.ts";
import { managementAuth, MOUNTS, type Mount } from "../plugins/management.ts";
import { applyChange, planChange } from "../../domain/field-changes/service.ts";
import { cancelChange, currentChange, getChange, listChanges, resumeChange } from "../../domain/field-changes/lifecycle.ts";

function fieldChangeGroup(s: Services, mount: Mount): AnyElysia {
  return new Elysia({ prefix: mount })
    .onTransform(() => {
      if (!s.config.fieldChanges) fail("feature_disabled");
    })
    .use(managementAuth(s, mount))
    .post(
      "/models/:id/field-changes/plan",
      async ({ principal, project, request, params, set }) => {
        const r = planChange(s, project, principal, params.id, await typedBody(request, PlanBody), mount);
        set.status = r.status;
        return r.body;
      },
      {
        scope: "model:update",
        detail: doc({
          summary: "Plan a field change: what converts, loses detail or fails; writes nothing",
          body: PlanBody,
          answers: { 200: Plan, 202: FieldChange },
        }),
      },
    )
    .post(
      "/models/:id/field-changes",
      async ({ principal, project, request, params, set }) => {
        const r = applyChange(s, project, principal, params.id, await typedBody(request, ApplyBody), mount);
        set.status = 202;
        return r;
      },
      {
        scope: "model:update",
        detail: doc({ summary: "Apply a planned field change with one decision per op", body: ApplyBody, answers: { 202: FieldChange } }),
      },
    )
    .get(
      "/models/:id/field-changes/current",
      ({ project, params, set }) => {
        const r = currentChange(project, params.id, mount);
        if (r === null) set.status = 204;
        return r;
      },
      { scope: "model:read", detail: doc({ summary: "The model's change in progress, or 204", answers: { 200: FieldChange, 204: null } }) },
    )
    .get("/models/:id/field-changes", ({ project, params, query }) => listChanges(project, params.id, query, mount), {
      scope: "model:read",
      detail: doc({ summary: "The model's past changes, newest first", query: ChangeListQuery, answers: { 200: FieldChangePage } }),
    })
    .get("/field-changes/:id", ({ project, params, query }) => getChange(project, params.id, query, mount), {
      scope: "model:read",
      detail: doc({ summary: "One change, with the values that failed to convert", query: FailuresQuery, answers: { 200: FieldChangeWithFailures } }),
    })
    .post("/field-changes/:id/cancel", ({ project, params }) => cancelChange(s, project, params.id, mount), {
      scope: "model:update",
      detail: doc({ summary: "Cancel a change until the model starts moving", answers: { 200: FieldChange } }),
    })
    .post(
      "/field-changes/:id/resume",
      async ({ project, request, params }) => resumeChange(s, project, params.id, await typedBody(request, ResumeBody), mount),
      {
        scope: "model:update",
        detail: doc({ summary: "Resume a failed or cancelled change", body: ResumeBody, answers: { 200: FieldChange } }),
      },
    );
}

/** The field-change routes on every mount. */
export function fieldChangeRoutes(s: Services): AnyElysia {
  const app = new Elysia();
  for (const m of MOUNTS) app.use(fieldChangeGroup(s, m));
  return app;
}
