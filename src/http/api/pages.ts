// GET /api/pages and /api/pages/{page}: the site's pages and what each reads.
import { Elysia } from "elysia";
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { getPage, listPages, type PageRecorder } from "../../domain/pages/service.ts";
import { keyedAuth } from "../plugins/keyed.ts";
import { apiOk } from "../plugins/keyed.ts";

export function pageRoutes(s: Services, pages: PageRecorder) {
  return new Elysia()
    .use(keyedAuth(s))
    .get(
      "/api/pages",
      ({ call }) => {
        pages.flush();
        return apiOk(call.info, listPages(s.projects.get(call.key.row.projectId)), "no-store");
      },
      { key: "instance:read" },
    )
    .get(
      "/api/pages/:page",
      ({ call, params }) => {
        pages.flush();
        const p = getPage(s.projects.get(call.key.row.projectId), params.page);
        if (!p) fail("route_not_found", { message: "No page of that name has been seen." });
        return apiOk(call.info, p, "no-store");
      },
      { key: "instance:read" },
    );
}
