// The library's folders (decisions.md section 10, /v2/media-folders): the tree as links that put
// the folder in the URL, and, for people who may change the library, New folder, Rename folder
// and Delete folder. A folder that still holds files or folders is refused by the server
// (409 folder_not_empty); the dialog says so in words and keeps the folder.
import { type FormEvent, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { ApiError, keys } from "../../api/client.ts";
import { mediaApi } from "../../api/media.ts";
import type { MediaFolder } from "../../api/types.ts";
import type { MediaSearch } from "../../router.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";

/** The `folder` of the URL for the files in no folder. */
export const NO_FOLDER = "none";

/** The folders as a tree: each folder with its children, by name. */
interface Branch {
  folder: MediaFolder;
  children: Branch[];
}

function treeOf(folders: MediaFolder[], parent: string | null = null): Branch[] {
  return folders.filter((f) => f.parent === parent).map((folder) => ({ folder, children: treeOf(folders, folder.id) }));
}

/** The folder and its ancestors, outermost first (for the heading and the record editor). */
export function folderPath(folders: MediaFolder[], id: string | null | undefined): MediaFolder[] {
  const out: MediaFolder[] = [];
  for (let at = folders.find((f) => f.id === id); at && out.length < 64; at = folders.find((f) => f.id === at!.parent)) out.unshift(at);
  return out;
}

/** The folders of the library as navigation, with the folder actions of `canEdit` people. */
export function FolderNav(props: { project: string; folders: MediaFolder[]; search: MediaSearch; canEdit: boolean }) {
  const { search } = props;
  const current = props.folders.find((f) => f.id === search.folder) ?? null;
  const link = (folder: string | undefined, words: string) => (
    <Link to="/media" search={{ ...search, folder }} activeOptions={{ exact: true, includeSearch: true }}>
      {words}
    </Link>
  );
  const branches = (list: Branch[]) => (
    <ul>
      {list.map((b) => (
        <li key={b.folder.id}>
          {link(b.folder.id, b.folder.name)}
          {b.children.length > 0 && branches(b.children)}
        </li>
      ))}
    </ul>
  );
  return (
    <nav aria-label="Media folders" className="folder-nav">
      <ul>
        <li>{link(undefined, "All files")}</li>
        <li>{link(NO_FOLDER, "Not in a folder")}</li>
      </ul>
      {branches(treeOf(props.folders))}
      {props.canEdit && <FolderActions project={props.project} current={current} search={search} />}
    </nav>
  );
}

type Open = "new" | "rename" | "delete" | null;

/** New folder (inside the folder shown, if any), and Rename and Delete of the folder shown. */
function FolderActions({ project, current, search }: { project: string; current: MediaFolder | null; search: MediaSearch }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState<Open>(null);
  const [name, setName] = useState("");
  const done = () => {
    setOpen(null);
    void client.invalidateQueries({ queryKey: keys.mediaFolders(project) });
  };
  const save = useMutation({
    mutationFn: () => (open === "rename" && current ? mediaApi.folders.update(current.id, { name }) : mediaApi.folders.create(name, current?.id ?? null)),
    onSuccess: (f) => {
      done();
      void navigate({ to: "/media", search: { ...search, folder: f.id } });
    },
  });
  const remove = useMutation({
    mutationFn: () => mediaApi.folders.remove(current!.id),
    onSuccess: () => {
      done();
      void navigate({ to: "/media", search: { ...search, folder: current?.parent ?? undefined } });
    },
  });
  const start = (what: Open) => {
    save.reset();
    remove.reset();
    setName(what === "rename" ? (current?.name ?? "") : "");
    setOpen(what);
  };
  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate();
  }
  const where = current ? `in ${current.name}` : "at the top";
  return (
    <div className="folder-actions">
      <button type="button" className="btn" onClick={() => start("new")}>
        New folder
      </button>
      {current && (
        <>
          <button type="button" className="btn" onClick={() => start("rename")}>
            Rename folder
          </button>
          <button type="button" className="btn btn-danger" onClick={() => start("delete")}>
            Delete folder
          </button>
        </>
      )}
      <Dialog
        open={open === "new" || open === "rename"}
        title={open === "rename" ? `Rename ${current?.name}` : `New folder ${where}`}
        onCancel={() => setOpen(null)}
      >
        <form className="form-stack" onSubmit={submit}>
          <div className="field">
            <label htmlFor="folder-name">Name</label>
            <input id="folder-name" value={name} maxLength={120} required onChange={(e) => setName(e.target.value)} />
          </div>
          {save.error && <Refusal error={save.error} />}
          <div className="toolbar">
            <button type="submit" className="btn btn-primary" disabled={save.isPending}>
              {open === "rename" ? "Rename" : "Create folder"}
            </button>
            <button type="button" className="btn" onClick={() => setOpen(null)}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>
      <Dialog open={open === "delete"} title={`Delete the folder ${current?.name}?`} onCancel={() => setOpen(null)}>
        <p>Only an empty folder can be deleted; its files are never deleted with it.</p>
        {remove.error && <FolderRefusal error={remove.error} />}
        <div className="toolbar">
          <button type="button" className="btn btn-danger-solid" disabled={remove.isPending} onClick={() => remove.mutate()}>
            Delete
          </button>
          <button type="button" className="btn" onClick={() => setOpen(null)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </div>
  );
}

/** A refused folder delete: `folder_not_empty` says what the folder still holds. */
function FolderRefusal({ error }: { error: Error }) {
  if (!(error instanceof ApiError) || error.code !== "folder_not_empty") return <Refusal error={error} />;
  const files = Number(error.body?.files ?? 0);
  const folders = Number(error.body?.folders ?? 0);
  const held = [files ? `${files} file${files === 1 ? "" : "s"}` : null, folders ? `${folders} folder${folders === 1 ? "" : "s"}` : null]
    .filter(Boolean)
    .join(" and ");
  return (
    <p role="alert" className="form-error">
      {`This folder is not empty: it holds ${held}. Move or delete ${files + folders === 1 ? "it" : "them"} first.`}
    </p>
  );
}
