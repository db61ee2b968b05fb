// GET /api/pages and /api/pages/{page}: the site's pages and what each reads.
import { Elysia } from "elysia";
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { KeyAuth } from "../../domain/keys/auth.ts";
import { getPage, listPages, type PageRecorder } from "../../domain/pages/service.ts";
import { apiAuth, apiOk } from "./shell.ts";

export function pageRoutes(s: Services, keys: KeyAuth, pages: PageRecorder) {
  return new Elysia()
    .get("/api/pages", ({ request }) => {
      const call = apiAuth(s, keys, request, "instance:read");
      pages.flush();
      return apiOk(call.info, listPages(s.projects.get(call.key.row.projectId)), "no-store");
    })
    .get("/api/pages/:page", ({ request, params }) => {
      const call = apiAuth(s, keys, request, "instance:read");
      pages.flush();
      const p = getPage(s.projects.get(call.key.row.projectId), params.page);
      if (!p) fail("route_not_found", { message: "No page of that name has been seen." });
      return apiOk(call.info, p, "no-store");
    });
}
