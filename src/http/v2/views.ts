// Saved views of entry lists under /v2/views (decisions.md 15), for people: keys have no views.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import { CreateViewBody, SavedView, UpdateViewBody, ViewList, ViewsQuery } from "../../domain/views/bodies.ts";
import { createView, deleteView, getView, listViews, updateView } from "../../domain/views/service.ts";
import { managementAuth } from "../plugins/management.ts";

export function viewRoutes(s: Services) {
  return new Elysia({ prefix: "/v2/views" })
    .use(managementAuth(s, "/v2"))
    .get("/", ({ principal, project, query }) => listViews(project, principal, query), {
      person: "instance:read",
      detail: doc({
        summary: "The saved views you can use: the shared ones and your own, each as it opens now (parts that no longer fit are in dropped)",
        query: ViewsQuery,
        answers: { 200: ViewList },
      }),
    })
    .post(
      "/",
      async ({ principal, project, request, set }) => {
        const v = createView(s, project, principal, await typedBody(request, CreateViewBody));
        set.status = 201;
        return v;
      },
      {
        person: "instance:read",
        detail: doc({
          summary: "Save a view of a model's list: columns, sort and where (the /api grammar), search; shared needs a role that edits entries",
          body: CreateViewBody,
          answers: { 201: SavedView },
        }),
      },
    )
    .get("/:id", ({ principal, project, params }) => getView(project, principal, params.id), {
      person: "instance:read",
      detail: doc({ summary: "One view as it opens now", answers: { 200: SavedView } }),
    })
    .patch("/:id", async ({ principal, project, params, request }) => updateView(s, project, principal, params.id, await typedBody(request, UpdateViewBody)), {
      person: "instance:read",
      detail: doc({
        summary: "Change a view (yours; a shared one also as an owner or admin)",
        body: UpdateViewBody,
        answers: { 200: SavedView },
      }),
    })
    .delete(
      "/:id",
      ({ principal, project, params, set }) => {
        deleteView(s, project, principal, params.id);
        set.status = 204;
        return null;
      },
      { person: "instance:read", detail: doc({ summary: "Delete a view (yours; a shared one also as an owner or admin)", answers: { 204: null } }) },
    );
}
