// The left rail: the person's current workspace (folders, models, entries, media folders), or
// every model when there is none (decisions.md 11), each model with its saved views under it
// (decisions.md 15). Collapsed folders are remembered per browser.
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useRouterState } from "@tanstack/react-router";
import { api, keys } from "../../api/client.ts";
import type { MediaFolder, Model, TreeNode } from "../../api/types.ts";
import { type SavedView, viewsApi, viewsKey } from "../../api/views.ts";

const COLLAPSED = "capa.rail.collapsed";

function readCollapsed(): Set<string> {
  try {
    return new Set(JSON.parse(localStorage.getItem(COLLAPSED) ?? "[]") as string[]);
  } catch {
    return new Set();
  }
}

/** The rail's workspace navigation for one project. */
export function Rail({ projectId }: { projectId: string }) {
  const models = useQuery({ queryKey: keys.models(projectId), queryFn: api.models.list });
  const workspaces = useQuery({ queryKey: keys.workspaces(projectId), queryFn: api.workspaces.list });
  const wsId = workspaces.data ? (workspaces.data.current ?? workspaces.data.default) : null;
  const tree = useQuery({ queryKey: keys.tree(projectId, wsId ?? ""), queryFn: () => api.workspaces.tree(wsId!), enabled: !!wsId });
  // Media folder nodes are named by their folder: the list is asked for only when the tree has one.
  const mediaFolders = useQuery({
    queryKey: keys.mediaFolders(projectId),
    queryFn: api.mediaFolders.list,
    enabled: !!tree.data && hasMediaFolder(tree.data),
  });
  const views = useQuery({ queryKey: viewsKey(projectId), queryFn: viewsApi.list });
  const [collapsed, setCollapsed] = useState(readCollapsed);

  function toggle(id: string) {
    const next = new Set(collapsed);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setCollapsed(next);
    try {
      localStorage.setItem(COLLAPSED, JSON.stringify([...next]));
    } catch {
      // Without storage the folder still toggles for this visit.
    }
  }

  const name = wsId ? workspaces.data?.data.find((w) => w.id === wsId)?.name : null;
  let body: React.ReactNode;
  if (models.isPending || workspaces.isPending || (wsId && tree.isPending)) body = <p className="muted">Loading…</p>;
  else if (wsId && tree.data)
    body = <Nodes nodes={tree.data} ctx={{ models: models.data ?? [], folders: mediaFolders.data ?? [], views: views.data ?? [], collapsed, toggle }} />;
  else body = <ModelList models={models.data ?? []} views={views.data ?? []} />;

  return (
    <nav aria-label="Workspace">
      <p className="section-title">{name ?? "Content"}</p>
      {body}
    </nav>
  );
}

function ModelList({ models, views }: { models: Model[]; views: SavedView[] }) {
  if (models.length === 0) return <p className="muted">No models yet.</p>;
  return (
    <ul>
      {models.map((m) => (
        <li key={m.id}>
          <ModelLink namespace={m.namespace} name={m.name} views={views} />
        </li>
      ))}
    </ul>
  );
}

/**
 * A model's link and, under it, its saved views. A view's link names only the view (the list
 * reads its columns, sort, filter and search), so the model's link is the current page only
 * while no view is open.
 */
function ModelLink({ namespace, name, views }: { namespace: string; name: string; views: SavedView[] }) {
  const openView = useRouterState({ select: (s) => (s.location.search as { view?: unknown }).view });
  const mine = views.filter((v) => v.model === namespace);
  return (
    <>
      <Link to="/content/$model" params={{ model: namespace }} activeOptions={typeof openView === "string" ? { exact: true } : { includeSearch: false }}>
        {name}
      </Link>
      {mine.length > 0 && (
        <ul className="rail-views" aria-label={`Views of ${name}`}>
          {mine.map((v) => (
            <li key={v.id}>
              <Link
                to="/content/$model"
                params={{ model: namespace }}
                search={{ view: v.id }}
                title={v.shared ? "Shared with the project" : "Only you see this view"}
              >
                {v.name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** What every node of the tree needs: models and media folders by id, and the folders' state. */
interface Ctx {
  models: Model[];
  folders: MediaFolder[];
  views: SavedView[];
  collapsed: Set<string>;
  toggle(id: string): void;
}

function hasMediaFolder(nodes: TreeNode[]): boolean {
  return nodes.some((n) => n.type === "media_folder" || (n.type === "folder" && hasMediaFolder(n.children)));
}

function Nodes({ nodes, ctx }: { nodes: TreeNode[]; ctx: Ctx }) {
  return (
    <ul>
      {nodes.map((n) => (
        <li key={n.id}>
          <NodeItem node={n} ctx={ctx} />
        </li>
      ))}
    </ul>
  );
}

function NodeItem({ node, ctx }: { node: TreeNode; ctx: Ctx }) {
  switch (node.type) {
    case "folder": {
      const open = !ctx.collapsed.has(node.id);
      return (
        <>
          <button type="button" className="folder-toggle" aria-expanded={open} onClick={() => ctx.toggle(node.id)}>
            {open ? "▾" : "▸"} {node.name}
          </button>
          {open && node.children.length > 0 && <Nodes nodes={node.children} ctx={ctx} />}
        </>
      );
    }
    case "model":
      if (node.missing || !node.namespace) return <span className="muted">Removed model</span>;
      return <ModelLink namespace={node.namespace} name={node.name ?? node.namespace} views={ctx.views} />;
    case "entry":
      if (node.missing || !node.namespace) return <span className="muted">Removed entry</span>;
      return (
        <Link to="/content/$model/$entryId" params={{ model: node.namespace, entryId: node.entryId }}>
          {node.title ?? "Untitled entry"}
        </Link>
      );
    case "media_folder":
      return (
        <Link to="/media" search={{ folder: node.mediaFolderId }}>
          {ctx.folders.find((f) => f.id === node.mediaFolderId)?.name ?? "Media folder"}
        </Link>
      );
  }
}
