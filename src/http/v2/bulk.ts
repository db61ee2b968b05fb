// Bulk publish, unpublish, delete (to the trash) and schedule, with the poll link of a batch, mounted for people under /v2 and for legacy
// keys under /v2/agent (interface.md, Management routes: Publishing now, Agent mount).
import { type AnyElysia, Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import { BulkAnswer, BulkBatch, BulkBody, BulkQueued, BulkScheduleBody, BulkScheduled } from "../../domain/bulk/bodies.ts";
import { bulkSchedule } from "../../domain/bulk/schedule.ts";
import { managementAuth, MOUNTS, once, type ManagementContext, type Mount } from "../plugins/management.ts";
import { bulk, getBatch, type BulkAction } from "../../domain/bulk/service.ts";
import { entryLocaleOf, localeParam } from "../../domain/locales/entry-locale.ts";
import { LocaleQuery } from "../../domain/entries/bodies.ts";

function group(s: Services, mount: Mount): AnyElysia {
  const prefix = `${mount}/model-instances`;
  const bulkRoute =
    (action: BulkAction) =>
    async ({ principal, project, actor, request, set }: ManagementContext & { request: Request; set: Parameters<typeof once>[5] }) => {
      const body = await typedBody(request, BulkBody);
      // ?locale= selects as the entry list in that locale does (status and q of the locale listed).
      const loc = entryLocaleOf(project, localeParam(request));
      const run = () => {
        const out = bulk(s, project, actor, action, body, loc);
        if (out.kind === "batch") return { status: 202, body: { batchId: out.batchId, count: out.count, poll: `${prefix}/bulk/${out.batchId}` } };
        return { status: 200, body: out.body };
      };
      // A dry run writes nothing, not even a stored answer.
      if (body.dryRun === true) {
        const r = run();
        set.status = r.status;
        return r.body;
      }
      return once(s, project, principal, request, body, set, run);
    };
  return new Elysia({ prefix })
    .use(managementAuth(s, mount))
    .post("/bulk-publish", bulkRoute("publish"), { scope: "instance:publish", detail: bulkDoc("publish") })
    .post("/bulk-unpublish", bulkRoute("unpublish"), { scope: "instance:publish", detail: bulkDoc("unpublish") })
    .post("/bulk-delete", bulkRoute("delete"), { scope: "instance:delete", detail: bulkDoc("delete (to the trash)") })
    .post(
      "/bulk-schedule",
      async ({ principal, project, actor, request, set }) => {
        const body = await typedBody(request, BulkScheduleBody);
        const loc = entryLocaleOf(project, localeParam(request));
        const run = () => {
          const out = bulkSchedule(s, project, actor, body, loc);
          return { status: "dryRun" in out ? 200 : 201, body: out };
        };
        if (body.dryRun === true) return run().body;
        return once(s, project, principal, request, body, set, run);
      },
      {
        scope: "instance:publish",
        detail: doc({
          summary: "Schedule a selection (instanceIds, or modelId with where, q and status): one action per entry, in one batch",
          body: BulkScheduleBody,
          query: LocaleQuery,
          answers: { 200: BulkScheduled, 201: BulkScheduled },
        }),
      },
    )
    .get("/bulk/:batchId", ({ project, params }) => ({ ...getBatch(project, params.batchId), poll: `${prefix}/bulk/${params.batchId.toLowerCase()}` }), {
      scope: "instance:read",
      detail: doc({ summary: "A bulk batch's state, counts and failures", answers: { 200: BulkBatch } }),
    });
}

/** The document of a bulk route. */
function bulkDoc(action: string) {
  return doc({
    summary: `Bulk ${action}: by instanceIds, or modelId with a filter; up to 50 inside the request, more as a batch`,
    body: BulkBody,
    query: LocaleQuery,
    answers: { 200: BulkAnswer, 202: BulkQueued },
  });
}

/** Bulk on both mounts. */
export function bulkRoutes(s: Services): AnyElysia {
  const app = new Elysia();
  for (const m of MOUNTS) app.use(group(s, m));
  return app;
}
