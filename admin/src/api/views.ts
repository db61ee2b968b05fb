// Saved views of entry lists (decisions.md 15; docs/app-server.md, "Saved views"): a name and the
// list's columns, sort, filter and search, private or shared with the project. The rail lists
// them under their model and the entry list opens, saves and changes them.
import type { CreateViewBody, UpdateViewBody } from "../../../src/shared/bodies.ts";
import type { SavedView } from "../../../src/shared/settings.ts";
import { call } from "./client.ts";

export type { DroppedPart, SavedView } from "../../../src/shared/settings.ts";

/** What a view keeps of a list. */
export type ViewParts = Pick<SavedView, "columns" | "sort" | "where" | "search">;

export const viewsApi = {
  list: () => call<{ data: SavedView[] }>("GET", "/v2/views").then((r) => r.data),
  create: (body: CreateViewBody) => call<SavedView>("POST", "/v2/views", { body }),
  update: (id: string, patch: UpdateViewBody) => call<SavedView>("PATCH", `/v2/views/${id}`, { body: patch }),
  remove: (id: string) => call<void>("DELETE", `/v2/views/${id}`),
};

/** The query key of a project's views (the rail and the list share it, so a list opened from the rail asks nothing more). */
export const viewsKey = (project: string) => ["views", project] as const;

/** Whether a person of `role` may change or delete `view`: their own, or a shared one as owner or admin. */
export function canChangeView(view: SavedView, role: string): boolean {
  return view.mine || (view.shared && (role === "owner" || role === "admin"));
}
