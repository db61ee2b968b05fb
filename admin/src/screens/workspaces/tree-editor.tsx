// The arrangement editor: the workspace's tree held in the page while it is edited (add,
// rename, remove, drag and drop, and the keyboard's row buttons), then `Save` sends it whole
// (PUT /v2/workspaces/:id/tree, mode replace). A refusal naming a node (`tree[0].children[1]...`)
// is shown beside that node; the rail shares the tree's query key, so it follows a save at once.
import { useEffect, useMemo, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useBlocker } from "@tanstack/react-router";
import { api, ApiError, keys } from "../../api/client.ts";
import { folderPaths, workspaceApi, workspaceKeys } from "../../api/workspaces.ts";
import { useProject } from "../shell/project-context.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";
import { AddNodes } from "./add-nodes.tsx";
import {
  addNode,
  folderChoices,
  fromShown,
  indent,
  indentTarget,
  locate,
  moveNode,
  moveToFolder,
  nodeAtField,
  outdent,
  removeNode,
  renameFolder,
  shift,
  toDocument,
  type Drop,
  type EditNode,
} from "./tree-edit.ts";
import { TreeRows, type RowAction, type RowContext } from "./tree-rows.tsx";
import { LeaveDialog } from "../../ui/leave-dialog.tsx";

const SAVED = "Arrangement saved.";
const GONE: Record<string, string> = { model: "model", entry: "entry", media_folder: "media folder" };

/** The sentence shown beside a refused node: in words for a reference that is gone, else the server's own. */
function nodeSentence(field: string, message: string): string {
  const kind = /\.(model|entry|media_folder)$/.exec(field)?.[1];
  return kind && message.includes(" names no ") ? `This ${GONE[kind]} is no longer in the project: remove it, then save.` : message;
}

/** The arrangement of one workspace, editable when `editable`. */
export function TreeEditor({ workspaceId, editable }: { workspaceId: string; editable: boolean }) {
  const { project } = useProject();
  const client = useQueryClient();
  const tree = useQuery({ queryKey: workspaceKeys.tree(project.id, workspaceId), queryFn: () => workspaceApi.tree(workspaceId) });
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  const folders = useQuery({ queryKey: workspaceKeys.mediaFolders(project.id), queryFn: workspaceApi.mediaFolders });
  const paths = useMemo(() => folderPaths(folders.data ?? []), [folders.data]);
  const base = useMemo(() => (tree.data ? fromShown(tree.data) : null), [tree.data]);
  const [draft, setDraft] = useState<EditNode[] | null>(null);
  const [said, setSaid] = useState("");
  const [dragging, setDragging] = useState<string | null>(null);
  const [moving, setMoving] = useState<string | null>(null);
  const [focusAfter, setFocusAfter] = useState<{ key: string; action: string } | null>(null);
  const current = draft ?? base;
  const dirty = !!draft && !!base && JSON.stringify(toDocument(draft)) !== JSON.stringify(toDocument(base));
  // Leaving with an unsaved arrangement asks first, in the app and on unload (as the entry editor does).
  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;
  const blocker = useBlocker({ shouldBlockFn: () => dirtyNow.current, enableBeforeUnload: () => dirtyNow.current, withResolver: true });

  const save = useMutation({
    mutationFn: (nodes: EditNode[]) => workspaceApi.saveTree(workspaceId, toDocument(nodes)),
    onSuccess: (saved) => {
      dirtyNow.current = false;
      client.setQueryData(workspaceKeys.tree(project.id, workspaceId), saved);
      setDraft(null);
      setSaid(SAVED);
      void client.invalidateQueries({ queryKey: workspaceKeys.list(project.id) });
    },
  });
  const refusal = save.error instanceof ApiError ? save.error : null;
  const errorKey = current && refusal ? nodeAtField(current, refusal.field) : null;

  // After a row button moves a node, focus returns to the same button of that node (or its first
  // enabled one), so a person can press Down or Indent again without hunting for it.
  useEffect(() => {
    if (!focusAfter) return;
    const row = document.querySelector(`[data-node="${focusAfter.key}"]`);
    const same = row?.querySelector<HTMLButtonElement>(`[data-action="${focusAfter.action}"]:not([disabled])`);
    (same ?? row?.querySelector<HTMLButtonElement>("button:not([disabled])"))?.focus();
    setFocusAfter(null);
  }, [focusAfter]);

  if (tree.isError) return <Refusal error={tree.error} />;
  if (!current) return <p>Loading…</p>;

  function labelOf(n: EditNode): string {
    switch (n.type) {
      case "folder":
        return n.name;
      case "media_folder":
        return paths.get(n.ref) ?? (folders.data ? "Removed media folder" : "Media folder");
      default:
        return n.label;
    }
  }

  /** Applies an edit to the draft; an earlier refusal no longer matches the tree, so it goes. */
  function change(next: EditNode[], words: string) {
    setDraft(next);
    setSaid(words);
    save.reset();
  }

  function placeWords(nodes: EditNode[], key: string): string {
    const at = locate(nodes, key);
    if (!at) return "";
    const where = at.parent ? `in ${at.parent.name}` : "at the top level";
    return `${labelOf(at.node)} is now item ${at.index + 1} of ${at.siblings.length} ${where}.`;
  }

  function act(key: string, action: RowAction) {
    if (!current) return;
    const at = locate(current, key);
    if (!at) return;
    const label = labelOf(at.node);
    let next = current;
    if (action === "up" || action === "down") next = shift(current, key, action === "up" ? -1 : 1);
    else if (action === "indent") next = indent(current, key);
    else if (action === "outdent") next = outdent(current, key);
    else if (action === "move") return setMoving(key);
    else if (action === "remove") {
      const lifted = at.node.type === "folder" && at.node.children.length > 0 ? "; what it held moved up a level" : "";
      // Focus goes to the row that takes its place (or the one above, or its folder), not to the page.
      const heir = (at.node.type === "folder" ? at.node.children[0] : undefined) ?? at.siblings[at.index + 1] ?? at.siblings[at.index - 1] ?? at.parent;
      change(removeNode(current, key), `${label} removed${lifted}. Save to keep this.`);
      if (heir) setFocusAfter({ key: heir.key, action });
      return;
    }
    const into = action === "indent" ? indentTarget(current, key) : null;
    change(next, into ? `${label} moved into ${labelOf(into)}.` : placeWords(next, key));
    setFocusAfter({ key, action });
  }

  const ctx: RowContext = {
    tree: current,
    editable,
    labelOf,
    error: errorKey && refusal ? { key: errorKey, message: nodeSentence(refusal.field ?? "", refusal.message) } : null,
    act,
    rename: (key, name) => change(renameFolder(current, key, name), `Folder renamed to ${name}.`),
    drop(key: string, target: string, where: Drop) {
      const next = moveNode(current, key, target, where);
      if (next === current) return;
      const t = locate(current, target)!;
      change(next, where === "inside" ? `${labelOf(locate(current, key)!.node)} moved into ${labelOf(t.node)}.` : placeWords(next, key));
    },
    dragging,
    setDragging,
  };
  const movingNode = moving ? locate(current, moving) : null;

  return (
    <>
      <section className="card screen-section" aria-labelledby="arrangement-title">
        <div className="toolbar">
          <h2 id="arrangement-title">Arrangement</h2>
          <span className="spacer" />
          {editable && dirty && <span className="muted">Unsaved changes</span>}
          {editable && (
            <>
              <button type="button" className="btn" disabled={!dirty || save.isPending} onClick={() => change(base ?? [], "Changes discarded.")}>
                Discard changes
              </button>
              <button type="button" className="btn btn-primary" disabled={!dirty || save.isPending} onClick={() => save.mutate(current)}>
                Save
              </button>
            </>
          )}
        </div>
        {save.error && (
          <p role="alert" className="form-error">
            Not saved: {save.error.message}
            {errorKey ? " The item is marked below." : ""}
          </p>
        )}
        {/* One live region: moves are read out, and a save also shows as a notice. */}
        <p aria-live="polite" className={said === SAVED ? "notice" : "visually-hidden"}>
          {said}
        </p>
        {current.length === 0 ? (
          <p className="muted">Nothing arranged yet{editable ? ": add a folder, a model, an entry or a media folder below." : "."}</p>
        ) : (
          <TreeRows nodes={current} ctx={ctx} label="Arrangement" />
        )}
      </section>
      {editable && (
        <AddNodes
          models={models.data ?? []}
          mediaFolders={paths}
          onAdd={(node, words) => change(addNode(current, node), `${words} added at the end of the top level.`)}
        />
      )}
      <LeaveDialog blocker={blocker} what="this arrangement" />
      <MoveDialog
        key={moving ?? "none"}
        node={movingNode ? { key: movingNode.node.key, label: labelOf(movingNode.node), parent: movingNode.parent?.key ?? null } : null}
        choices={moving ? folderChoices(current, moving) : []}
        onCancel={() => setMoving(null)}
        onMove={(key, folder) => {
          setMoving(null);
          const next = moveToFolder(current, key, folder);
          change(next, placeWords(next, key));
          setFocusAfter({ key, action: "move" });
        }}
      />
    </>
  );
}

function MoveDialog(props: {
  node: { key: string; label: string; parent: string | null } | null;
  choices: { key: string; path: string }[];
  onCancel(): void;
  onMove(key: string, folder: string | null): void;
}) {
  const [to, setTo] = useState("");
  const { node } = props;
  return (
    <Dialog open={!!node} title={node ? `Move ${node.label}` : "Move"} onCancel={props.onCancel}>
      {node && (
        <form
          className="form-stack"
          onSubmit={(e) => {
            e.preventDefault();
            props.onMove(node.key, to === "" ? null : to);
            setTo("");
          }}
        >
          <div className="field">
            <label htmlFor="move-to">Folder</label>
            <select id="move-to" value={to} onChange={(e) => setTo(e.target.value)}>
              <option value="">Top level</option>
              {props.choices.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.path}
                </option>
              ))}
            </select>
          </div>
          <p className="muted">It goes to the end of the folder you choose.</p>
          <div className="toolbar">
            <button type="submit" className="btn btn-primary">
              Move
            </button>
            <button type="button" className="btn" onClick={props.onCancel}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
