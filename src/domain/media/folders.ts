// Media folders (decisions.md section 10): a tree by parent. A folder is deleted only when it
// holds neither files nor folders (409 folder_not_empty), and a move that would make a folder its
// own ancestor is refused, so the tree never has a cycle.
import type { Static } from "@sinclair/typebox";
import type { CreateFolderBody, UpdateFolderBody } from "./bodies.ts";
import { asc, eq } from "drizzle-orm";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import { mediaFolders } from "../../storage/project/schema.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { write } from "../unit-of-work.ts";

/** A folder as the routes answer it. */
export interface MediaFolder {
  id: string;
  name: string;
  parent: string | null;
  createdAt: string;
  updatedAt: string;
}

type FolderRow = typeof mediaFolders.$inferSelect;

function folderOut(r: FolderRow): MediaFolder {
  return { id: r.id, name: r.name, parent: r.parentId, createdAt: r.createdAt, updatedAt: r.updatedAt };
}

/** Whether a folder exists. */
export function folderExists(h: ProjectHandle, id: string): boolean {
  return h.db.select({ id: mediaFolders.id }).from(mediaFolders).where(eq(mediaFolders.id, id)).get() !== undefined;
}

function folderOrFail(h: ProjectHandle, id: string): FolderRow {
  const row = h.db.select().from(mediaFolders).where(eq(mediaFolders.id, id)).get();
  if (!row) fail("not_found", { message: `No media folder with id ${id} in this project.` });
  return row;
}

/** Checks `parent` (null or, as the body's model says, a text): an existing folder's id. */
function checkParent(h: ProjectHandle, v: string | null): string | null {
  if (v === null) return null;
  if (!folderExists(h, v)) badField("parent", `parent names no media folder of this project: ${JSON.stringify(v)}`);
  return v;
}

/** Every folder, by name within the project (a few hundred at most; the admin builds the tree). */
export function listFolders(h: ProjectHandle): { data: MediaFolder[] } {
  return { data: h.db.select().from(mediaFolders).orderBy(asc(mediaFolders.name), asc(mediaFolders.id)).all().map(folderOut) };
}

/** Creates a folder from `{ name, parent? }`. */
export function createFolder(s: Services, h: ProjectHandle, body: Static<typeof CreateFolderBody>): MediaFolder {
  const name = body.name.trim();
  return write(s, h, () => {
    const parentId = checkParent(h, body.parent ?? null);
    const now = iso(s.clock.now());
    const row: FolderRow = { id: s.ids.uuid(), name, parentId, createdAt: now, updatedAt: now };
    h.db.insert(mediaFolders).values(row).run();
    return folderOut(row);
  });
}

/** Renames or moves a folder (`{ name?, parent? }`); a move under itself or a descendant is refused. */
export function updateFolder(s: Services, h: ProjectHandle, id: string, body: Static<typeof UpdateFolderBody>): MediaFolder {
  return write(s, h, () => {
    const row = folderOrFail(h, id);
    const name = body.name === undefined ? row.name : body.name.trim();
    let parentId = row.parentId;
    if (body.parent !== undefined) {
      parentId = checkParent(h, body.parent);
      // Walk up from the new parent: meeting the folder itself means it would be its own ancestor.
      for (let at = parentId; at !== null; at = folderOrFail(h, at).parentId) {
        if (at === id) badField("parent", "A folder cannot move into itself or one of its own folders.");
      }
    }
    const next = { ...row, name, parentId, updatedAt: iso(s.clock.now()) };
    h.db.update(mediaFolders).set({ name, parentId, updatedAt: next.updatedAt }).where(eq(mediaFolders.id, id)).run();
    return folderOut(next);
  });
}

/** Deletes an empty folder; 409 folder_not_empty while it holds files or folders. */
export function deleteFolder(s: Services, h: ProjectHandle, id: string): void {
  write(s, h, () => {
    folderOrFail(h, id);
    const files = h.sqlite.query("SELECT count(*) AS n FROM media WHERE folder_id = ?").get(id) as { n: number };
    const folders = h.sqlite.query("SELECT count(*) AS n FROM media_folders WHERE parent_id = ?").get(id) as { n: number };
    if (files.n > 0 || folders.n > 0) {
      fail("folder_not_empty", {
        message: `The folder holds ${files.n} file(s) and ${folders.n} folder(s); move or delete them first.`,
        extra: { files: files.n, folders: folders.n },
      });
    }
    h.db.delete(mediaFolders).where(eq(mediaFolders.id, id)).run();
  });
}
