// The workspace routes of /v2 (interface.md, Workspaces; docs/admin-structure.md) used by the
// lazily loaded Workspaces screens. The rail reads the list and the tree through `api` in
// client.ts with the same query keys, so a change made here shows in the rail at once.
import type { AssignBody, CreateWorkspaceBody, CurrentWorkspaceBody, PutTreeBody, UpdateWorkspaceBody, WorkspaceNode } from "../../../src/shared/bodies.ts";
import type { Assigned, TreeNode } from "../../../src/shared/settings.ts";
import { api, call, keys } from "./client.ts";
import type { MediaFolder, Workspace, WorkspaceList } from "./types.ts";

export type { WorkspaceNode as DocNode } from "../../../src/shared/bodies.ts";

/**
 * The templates a workspace is created from (interface.md, Workspace: `blank`, `website`,
 * `catalog`) with the top-level folders each seeds (docs/admin-structure.md). The server has no
 * route listing them, so the list is kept here beside the words people read.
 */
export const TEMPLATES = [
  { id: "blank", word: "Blank", folders: [] },
  { id: "website", word: "Website", folders: ["Pages", "Blog", "Navigation", "Settings"] },
  { id: "catalog", word: "Catalog", folders: ["Products", "Categories", "Collections", "Brands"] },
] as const;

/** The words of each visibility. */
export const VISIBILITY_WORDS: Record<Workspace["visibility"], string> = { team: "Team", private: "Private" };

/** The workspace routes, one function per documented route. */
export const workspaceApi = {
  list: () => call<WorkspaceList>("GET", "/v2/workspaces"),
  create: (body: CreateWorkspaceBody) => call<Workspace>("POST", "/v2/workspaces", { body }),
  /** Renames or changes the visibility (PUT /v2/workspaces/:id with only what changed). */
  update: (id: string, patch: UpdateWorkspaceBody) => call<Workspace>("PUT", `/v2/workspaces/${id}`, { body: patch }),
  remove: (id: string) => call<void>("DELETE", `/v2/workspaces/${id}`),
  tree: (id: string) => call<{ data: TreeNode[] }>("GET", `/v2/workspaces/${id}/tree`).then((r) => r.data),
  /** Makes the workspace exactly this document; the answer is the saved tree. */
  saveTree: (id: string, tree: WorkspaceNode[]) =>
    call<{ data: TreeNode[] }>("PUT", `/v2/workspaces/${id}/tree`, { body: { mode: "replace", tree } satisfies PutTreeBody }).then((r) => r.data),
  /** The person's own choice of current workspace. */
  use: (id: string) => call<Workspace>("PUT", "/v2/workspaces/current", { body: { workspaceId: id } satisfies CurrentWorkspaceBody }),
  setDefault: (id: string) => call<Workspace>("PUT", `/v2/workspaces/${id}/default`),
  assigned: (id: string) => call<Assigned>("GET", `/v2/workspaces/${id}/assign`).then((r) => r.userIds),
  assign: (id: string, userIds: string[]) => call<Assigned>("PUT", `/v2/workspaces/${id}/assign`, { body: { userIds } satisfies AssignBody }),
  mediaFolders: (): Promise<MediaFolder[]> => api.mediaFolders.list(),
};

/** Query keys of the Workspaces screens; the list and trees share the rail's keys. */
export const workspaceKeys = {
  list: keys.workspaces,
  tree: keys.tree,
  assigned: (project: string, id: string) => ["workspace-assigned", project, id] as const,
  mediaFolders: keys.mediaFolders,
};

/** Whether a role may create, arrange, rename and delete workspaces (decisions.md 2: editors and up). */
export function canArrange(role: string): boolean {
  return role === "owner" || role === "admin" || role === "developer" || role === "editor";
}

/** Whether a role may set the project's default workspace and assign workspaces (owners and admins). */
export function canAssign(role: string): boolean {
  return role === "owner" || role === "admin";
}

/** Each media folder's name with its parents' (`Photos / 2024`), by id. */
export function folderPaths(folders: MediaFolder[]): Map<string, string> {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const out = new Map<string, string>();
  for (const f of folders) {
    const names: string[] = [];
    // A bounded walk: the server refuses cycles, and the bound keeps a bad answer from hanging the page.
    for (let at: MediaFolder | undefined = f, i = 0; at && i < 50; at = at.parent ? byId.get(at.parent) : undefined, i++) names.unshift(at.name);
    out.set(f.id, names.join(" / "));
  }
  return out;
}
