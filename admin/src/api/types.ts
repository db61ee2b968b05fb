// The shapes of the /v2 answers the admin app reads (interface.md, decisions.md 3 and 7), and
// the words it shows for some of them.

// The server's answer types come from the models its routes check with (src/shared/), imported
// as types only: nothing of the server enters the bundle.
export type { Entry, EntryPage, EntryStatus, Version } from "../../../src/shared/entries.ts";
export type { Field, FieldType, Layout, LayoutCard, LayoutField, Model } from "../../../src/shared/models.ts";
export type { Member, Project } from "../../../src/shared/people.ts";
export type { Resolved, ScheduledAction } from "../../../src/shared/scheduling.ts";
export type { MediaFolder, MediaKind } from "../../../src/shared/media.ts";
export type { TreeNode, Workspace, WorkspaceList } from "../../../src/shared/settings.ts";
import type { MediaKind, MediaQuery } from "../../../src/shared/media.ts";

/** The orders of the entry list (`-` for newest first). */
export type EntrySort = "createdAt" | "-createdAt" | "updatedAt" | "-updatedAt";

/** Every kind with the word people read, in the order interface.md lists them. */
export const KIND_WORDS: Record<MediaKind, string> = {
  image: "Image",
  video: "Video",
  audio: "Audio",
  document: "Document",
  pdf: "PDF",
  file: "File",
  unknown: "Unknown",
};

/** The media list's orders (GET /v2/media?sort=); `-` is descending, `createdAt` the upload order. */
export const MEDIA_SORTS = ["-createdAt", "createdAt", "name", "-name", "size", "-size"] as const satisfies readonly NonNullable<MediaQuery["sort"]>[];
export type MediaSort = (typeof MEDIA_SORTS)[number];
