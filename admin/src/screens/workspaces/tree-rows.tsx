// The rows of the arrangement: one per node, nested as the folders nest. Each row can be dragged
// (HTML5 drag and drop: the upper part of a row drops before it, the lower part after it, the
// middle of a folder inside it) and has buttons doing the same from the keyboard: Up, Down,
// Indent (into the folder above), Outdent (out of its folder), Move to… and Remove, plus Rename
// for folders. Read-only rows show the arrangement alone.
import { useEffect, useRef, useState, type DragEvent, type FormEvent } from "react";
import { canDrop, indentTarget, type Drop, type EditNode } from "./tree-edit.ts";

/** What a row asks the editor to do. */
export type RowAction = "up" | "down" | "indent" | "outdent" | "move" | "remove";

/** What every row shares: the tree, the words for nodes, the editor's callbacks and drag state. */
export interface RowContext {
  tree: EditNode[];
  editable: boolean;
  /** The words a node is shown and named by. */
  labelOf(n: EditNode): string;
  /** The node a refusal names, and its sentence. */
  error: { key: string; message: string } | null;
  act(key: string, action: RowAction): void;
  rename(key: string, name: string): void;
  drop(key: string, target: string, where: Drop): void;
  dragging: string | null;
  setDragging(key: string | null): void;
}

const KIND_WORDS: Record<EditNode["type"], string> = { folder: "Folder", model: "Model", entry: "Entry", media_folder: "Media folder" };

/** Where a pointer over a row would drop: thirds of a folder (before, inside, after), halves of anything else. */
function dropAt(e: DragEvent<HTMLElement>, folder: boolean): Drop {
  const r = e.currentTarget.getBoundingClientRect();
  const y = (e.clientY - r.top) / Math.max(r.height, 1);
  if (folder) return y < 0.25 ? "before" : y > 0.75 ? "after" : "inside";
  return y < 0.5 ? "before" : "after";
}

/** A list of sibling nodes. */
export function TreeRows({ nodes, ctx, label }: { nodes: EditNode[]; ctx: RowContext; label?: string }) {
  return (
    <ul className="tree-list" aria-label={label}>
      {nodes.map((n, i) => (
        <li key={n.key}>
          <Row node={n} first={i === 0} last={i === nodes.length - 1} ctx={ctx} />
          {n.type === "folder" && n.children.length > 0 && <TreeRows nodes={n.children} ctx={ctx} />}
        </li>
      ))}
    </ul>
  );
}

function RenameForm({ node, ctx, done }: { node: EditNode; ctx: RowContext; done(): void }) {
  const [name, setName] = useState(ctx.labelOf(node));
  const input = useRef<HTMLInputElement>(null);
  // Focus moves into the field when it opens, as a person expects after pressing Rename.
  useEffect(() => input.current?.focus(), []);
  function submit(e: FormEvent) {
    e.preventDefault();
    if (name.trim() === "") return;
    ctx.rename(node.key, name.trim());
    done();
  }
  return (
    <form className="tree-rename" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={`rename-${node.key}`}>
        Folder name
      </label>
      <input
        id={`rename-${node.key}`}
        value={name}
        maxLength={120}
        required
        ref={input}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") done();
        }}
      />
      <button type="submit" className="btn btn-quiet">
        Rename folder
      </button>
      <button type="button" className="btn btn-quiet" onClick={done}>
        Cancel
      </button>
    </form>
  );
}

function Row({ node, first, last, ctx }: { node: EditNode; first: boolean; last: boolean; ctx: RowContext }) {
  const [hint, setHint] = useState<Drop | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [renamed, setRenamed] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  // When the rename field closes, focus goes back to the Rename button it came from.
  useEffect(() => {
    if (!renaming && renamed) {
      renameButton.current?.focus();
      setRenamed(false);
    }
  }, [renaming, renamed]);
  const label = ctx.labelOf(node);
  const missing = (node.type === "model" || node.type === "entry") && node.missing;
  const error = ctx.error?.key === node.key ? ctx.error.message : null;
  const errorId = `node-error-${node.key}`;
  const folder = node.type === "folder";

  const drag = ctx.editable
    ? {
        draggable: !renaming,
        onDragStart(e: DragEvent<HTMLDivElement>) {
          e.stopPropagation();
          e.dataTransfer.setData("text/plain", node.key);
          e.dataTransfer.effectAllowed = "move";
          ctx.setDragging(node.key);
        },
        onDragEnd() {
          ctx.setDragging(null);
          setHint(null);
        },
        onDragOver(e: DragEvent<HTMLDivElement>) {
          const where = dropAt(e, folder);
          if (!ctx.dragging || !canDrop(ctx.tree, ctx.dragging, node.key, where)) return setHint(null);
          e.preventDefault();
          e.dataTransfer.dropEffect = "move";
          setHint(where);
        },
        onDragLeave() {
          setHint(null);
        },
        onDrop(e: DragEvent<HTMLDivElement>) {
          e.preventDefault();
          const key = ctx.dragging ?? e.dataTransfer.getData("text/plain");
          const where = dropAt(e, folder);
          setHint(null);
          ctx.setDragging(null);
          if (key) ctx.drop(key, node.key, where);
        },
      }
    : {};

  const button = (action: RowAction, word: string, name: string, disabled = false) => (
    <button type="button" className="btn btn-quiet" data-action={action} aria-label={name} disabled={disabled} onClick={() => ctx.act(node.key, action)}>
      {word}
    </button>
  );

  return (
    <div
      className={`tree-row${hint ? ` drop-${hint}` : ""}${ctx.dragging === node.key ? " dragging" : ""}${error ? " invalid" : ""}`}
      data-node={node.key}
      {...drag}
    >
      {ctx.editable && (
        <span className="tree-handle" aria-hidden="true">
          ⋮⋮
        </span>
      )}
      <span className="tree-kind">{KIND_WORDS[node.type]}</span>
      {renaming ? (
        <RenameForm
          node={node}
          ctx={ctx}
          done={() => {
            setRenaming(false);
            setRenamed(true);
          }}
        />
      ) : (
        <span className={`tree-label${missing ? " muted" : ""}`} aria-describedby={error ? errorId : undefined}>
          {label}
          {missing && " (removed)"}
        </span>
      )}
      {ctx.editable && !renaming && (
        <span className="tree-actions">
          {button("up", "Up", `Move ${label} up`, first)}
          {button("down", "Down", `Move ${label} down`, last)}
          {button("indent", "Indent", `Indent ${label}`, !indentTarget(ctx.tree, node.key))}
          {button(
            "outdent",
            "Outdent",
            `Outdent ${label}`,
            ctx.tree.some((n) => n.key === node.key),
          )}
          {button("move", "Move to…", `Move ${label} to folder`)}
          {folder && (
            <button
              type="button"
              ref={renameButton}
              className="btn btn-quiet"
              data-action="rename"
              aria-label={`Rename ${label}`}
              onClick={() => setRenaming(true)}
            >
              Rename
            </button>
          )}
          {button("remove", "Remove", `Remove ${label}`)}
        </span>
      )}
      {error && (
        <p className="error tree-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
