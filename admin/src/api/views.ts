// Saved views of entry lists (decisions.md 15; docs/app-server.md, "Saved views"): a name and the
// list's columns, sort, filter and search, private or shared with the project. The rail lists
// them under their model and the entry list opens, saves and changes them.
import { call } from "./client.ts";

/** A part of a view that no longer fits its model (a field removed or changed), left out when it opens. */
export interface DroppedPart {
  part: "columns" | "sort" | "where";
  key: string;
  message: string;
}

/** A saved view as GET /v2/views answers it. */
export interface SavedView {
  id: string;
  model: string;
  modelId: string;
  name: string;
  shared: boolean;
  columns: string[];
  sort: string | null;
  where: Record<string, unknown> | null;
  search: string | null;
  /** Whether the signed-in person made it. */
  mine: boolean;
  createdAt: string;
  updatedAt: string;
  dropped: DroppedPart[];
}

/** What a view keeps of a list. */
export interface ViewParts {
  columns: string[];
  sort: string | null;
  where: Record<string, unknown> | null;
  search: string | null;
}

export const viewsApi = {
  list: () => call<{ data: SavedView[] }>("GET", "/v2/views").then((r) => r.data),
  create: (body: ViewParts & { model: string; name: string; shared: boolean }) => call<SavedView>("POST", "/v2/views", { body }),
  update: (id: string, patch: Partial<ViewParts & { name: string; shared: boolean }>) => call<SavedView>("PATCH", `/v2/views/${id}`, { body: patch }),
  remove: (id: string) => call<void>("DELETE", `/v2/views/${id}`),
};

/** The query key of a project's views (the rail and the list share it, so a list opened from the rail asks nothing more). */
export const viewsKey = (project: string) => ["views", project] as const;

/** Whether a person of `role` may change or delete `view`: their own, or a shared one as owner or admin. */
export function canChangeView(view: SavedView, role: string): boolean {
  return view.mine || (view.shared && (role === "owner" || role === "admin"));
}
