// Entries under /v2/model-instances: drafts, versions, publish, unpublish, delete.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { authenticatePerson } from "./auth.ts";
import { jsonBody } from "./body.ts";
import { projectOf, requireScope, type Principal } from "../../domain/access/principal.ts";
import { createEntry, deleteEntry, getEntry, listEntries, listVersions, updateEntry } from "../../domain/entries/service.ts";

/** The actor string recorded on versions and events. */
export function actorOf(p: Principal): string {
  return p.kind === "user" ? `user:${p.userId}` : `api_key:${p.keyId}`;
}

export function entryRoutes(s: Services) {
  const ctx = async (request: Request, scope: string) => {
    const p = await authenticatePerson(s, request);
    requireScope(p, scope);
    return { p, h: s.projects.get(projectOf(p)) };
  };
  return (
    new Elysia({ prefix: "/v2/model-instances" })
      .get("/", async ({ request, query }) => {
        const { h } = await ctx(request, "instance:read");
        return listEntries(h, query);
      })
      .post("/", async ({ request, set }) => {
        const { p, h } = await ctx(request, "instance:create");
        const e = createEntry(s, h, actorOf(p), await jsonBody(request));
        set.status = 201;
        return e;
      })
      .get("/:id", async ({ request, params }) => {
        const { h } = await ctx(request, "instance:read");
        return getEntry(h, params.id);
      })
      .patch("/:id", async ({ request, params }) => {
        const { p, h } = await ctx(request, "instance:update");
        return updateEntry(s, h, actorOf(p), params.id, await jsonBody(request));
      })
      .delete("/:id", async ({ request, params, set }) => {
        const { p, h } = await ctx(request, "instance:delete");
        deleteEntry(s, h, actorOf(p), params.id);
        set.status = 204;
        return null;
      })
      // Publishing now (`/:id/publish`, `/:id/unpublish`) lives in bulk.ts, mounted for keys too.
      .get("/:id/versions", async ({ request, params }) => {
        const { h } = await ctx(request, "instance:read");
        return { data: listVersions(h, params.id) };
      })
  );
}
