// Publishing now: one entry (`/:id/publish`, `/:id/unpublish`), an entry's upcoming actions, and
// bulk publish and unpublish with their poll link. Mounted for people under /v2 and for legacy
// keys under /v2/agent (interface.md, Management routes: Publishing now, Agent mount).
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { mounts, type Mount } from "./auth.ts";
import { jsonBody } from "./body.ts";
import { once } from "./idempotency.ts";
import { actorOf } from "./entries.ts";
import { projectOf, requireScope } from "../../domain/access/principal.ts";
import { getEntry, publishEntry, unpublishEntry } from "../../domain/entries/service.ts";
import { bulk, getBatch, type BulkAction } from "../../domain/bulk/service.ts";
import { entryActions } from "../../domain/scheduling/queries.ts";

function group(s: Services, m: Mount) {
  const prefix = `${m.prefix}/model-instances`;
  const ctx = async (request: Request, scope: string) => {
    const p = await m.auth(request);
    requireScope(p, scope);
    return { p, h: s.projects.get(projectOf(p)) };
  };
  const bulkRoute =
    (action: BulkAction) =>
    async ({ request, set }: { request: Request; set: Parameters<typeof once>[5] }) => {
      const { p, h } = await ctx(request, "instance:publish");
      const body = await jsonBody(request);
      const run = () => {
        const out = bulk(s, h, actorOf(p), action, body);
        if (out.kind === "batch") return { status: 202, body: { batchId: out.batchId, count: out.count, poll: `${prefix}/bulk/${out.batchId}` } };
        return { status: 200, body: out.body };
      };
      // A dry run writes nothing, not even a stored answer.
      if (body.dryRun === true) {
        const r = run();
        set.status = r.status;
        return r.body;
      }
      return once(s, h, p, request, body, set, run);
    };
  return new Elysia({ prefix })
    .post("/bulk-publish", bulkRoute("publish"))
    .post("/bulk-unpublish", bulkRoute("unpublish"))
    .get("/bulk/:batchId", async ({ request, params }) => {
      const { h } = await ctx(request, "instance:read");
      return { ...getBatch(h, params.batchId), poll: `${prefix}/bulk/${params.batchId.toLowerCase()}` };
    })
    .post("/:id/publish", async ({ request, params, set }) => {
      const { p, h } = await ctx(request, "instance:publish");
      const body = await jsonBody(request);
      return once(s, h, p, request, body, set, () => ({ status: 200, body: publishEntry(s, h, actorOf(p), params.id, body.versionId) }));
    })
    .post("/:id/unpublish", async ({ request, params, set }) => {
      const { p, h } = await ctx(request, "instance:publish");
      const body = await jsonBody(request);
      return once(s, h, p, request, body, set, () => ({ status: 200, body: unpublishEntry(s, h, actorOf(p), params.id) }));
    })
    .get("/:id/scheduled", async ({ request, params }) => {
      const { h } = await ctx(request, "instance:read");
      const e = getEntry(h, params.id);
      return entryActions(h, { id: e.id, modelId: e.modelId });
    });
}

/** Publishing now and bulk on both mounts. */
export function bulkRoutes(s: Services) {
  const app = new Elysia();
  for (const m of mounts(s)) app.use(group(s, m));
  return app;
}
