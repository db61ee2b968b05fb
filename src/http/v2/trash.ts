// The trash under /v2/trash (decisions.md 15; docs/editing.md): entries deleted with
// `DELETE /v2/model-instances/:id`, listed, restored as they were, or deleted for ever. People
// only, like delete itself. Reading the trash takes `instance:read`; restoring and deleting for
// ever take `instance:delete`, the permission that put the entry there.
import { type AnyElysia, Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { doc } from "./doc.ts";
import { Restored, TrashItem, TrashPage, TrashQuery } from "../../domain/entries/list-bodies.ts";
import { deleteForever, getTrashed, listTrash, restoreEntry } from "../../domain/entries/trash.ts";
import { managementAuth } from "../plugins/management.ts";

/** The trash routes. */
export function trashRoutes(s: Services): AnyElysia {
  return new Elysia({ prefix: "/v2/trash" })
    .use(managementAuth(s, "/v2"))
    .get("/", ({ project, query }) => listTrash(project, query), {
      scope: "instance:read",
      detail: doc({ summary: "Entries in the trash, most recently deleted first (keyset paged by next)", query: TrashQuery, answers: { 200: TrashPage } }),
    })
    .get("/:id", ({ project, params }) => getTrashed(project, params.id), {
      scope: "instance:read",
      detail: doc({ summary: "One entry of the trash (404 when it is not there)", answers: { 200: TrashItem } }),
    })
    .post("/:id/restore", ({ project, actor, params }) => restoreEntry(s, project, actor, params.id), {
      scope: "instance:delete",
      detail: doc({ summary: "Bring an entry back as it was (status, versions, tags); fires instance.restored", answers: { 200: Restored } }),
    })
    .delete(
      "/:id",
      ({ project, params, set }) => {
        deleteForever(s, project, params.id);
        set.status = 204;
        return null;
      },
      { scope: "instance:delete", detail: doc({ summary: "Delete an entry of the trash for ever", answers: { 204: null } }) },
    );
}
