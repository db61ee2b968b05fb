// The shapes of the /v2 answers the admin app reads (interface.md, decisions.md 3 and 7).

/** A project the person belongs to (GET /v2/projects). */
export interface Project {
  id: string;
  name: string;
  slug: string;
  role: string;
  lastOpenedAt: string | null;
}

/** Every kind of field a model can hold. */
export type FieldType =
  | "string"
  | "markdown"
  | "html"
  | "code"
  | "enum"
  | "color"
  | "number"
  | "true_false"
  | "date"
  | "array"
  | "relation"
  | "image"
  | "video"
  | "file"
  | "mixed";

/** A field of a model. */
export interface Field {
  id: string;
  namespace: string;
  label: string | null;
  type: FieldType;
  arrayType: FieldType | null;
  relation: string | null;
  required: boolean;
  options: { values?: string[] } | null;
  /** The editing rules of decisions.md 15; absent on a server or a field without them. */
  unique?: boolean;
  min?: number | null;
  max?: number | null;
  minLength?: number | null;
  maxLength?: number | null;
  pattern?: string | null;
  patternMessage?: string | null;
  default?: unknown;
  help?: string | null;
  slug?: { from: string } | null;
  /** One value per locale (decisions.md 13); absent or false: shared by every locale. */
  localized?: boolean;
}

/** A field placed on a layout card. */
export interface LayoutField {
  t: "field";
  id: string;
  fieldId: string;
  width: "full" | "two_thirds" | "half" | "third";
  display?: "picker" | "inline" | "embedded";
}

/** A card of an entry layout. */
export interface LayoutCard {
  t: "card";
  id: string;
  title: string;
  description?: string | null;
  collapsible: boolean;
  collapsed: boolean;
  items: LayoutField[];
}

/** A model's entry layout. */
export interface Layout {
  v: 1;
  main: LayoutCard[];
  aside: LayoutCard[];
}

/** A model (GET /v2/models). */
export interface Model {
  id: string;
  namespace: string;
  name: string;
  description: string | null;
  singleEntry: boolean;
  version: number;
  fields: Field[];
  layout: Layout | null;
  /** The site URL that previews an entry, with {token}, {id}, {model} and {<field>} placeholders, or null. */
  previewUrl: string | null;
}

/** The orders of the entry list (`-` for newest first). */
export type EntrySort = "createdAt" | "-createdAt" | "updatedAt" | "-updatedAt";

/** An entry's status under management. */
export type EntryStatus = "draft" | "published" | "changed";

/** An entry's management record (GET /v2/model-instances/:id). */
export interface Entry {
  id: string;
  model: string;
  modelId: string;
  status: EntryStatus;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  version: number;
  publishedVersion: number | null;
  tags: string[];
  folder: string | null;
  draft: { versionId: string; version: number; data: Record<string, unknown> };
  published: { versionId: string; version: number; data: Record<string, unknown> } | null;
  /** The locale read (`*` for all) and each locale's own status, on entries of models with localized fields. */
  locale?: string;
  locales?: Record<string, { status: EntryStatus; publishedAt: string | null }>;
  /** Who saved the current draft (`user:<id>` or `api_key:<id>`), on list items. */
  updatedBy?: string | null;
}

/** One page of the entry list, with the cursor of the next page. */
export interface EntryPage {
  data: Entry[];
  limit: number;
  total: number;
  next: string | null;
}

/** A workspace the person can see (GET /v2/workspaces). */
export interface Workspace {
  id: string;
  name: string;
  icon: string | null;
  visibility: "team" | "private";
  template: string;
  /** Who created it: a person (`user`) or a key (`api_key`), by id. */
  createdBy: { kind: string; id: string };
  createdAt: string;
  updatedAt: string;
  /** How many nodes its tree holds. */
  nodes: number;
  isCurrent: boolean;
  isDefault: boolean;
}

/** The workspace list with the current and default workspace ids. */
export interface WorkspaceList {
  data: Workspace[];
  current: string | null;
  default: string | null;
}

/** A node of a workspace tree (GET /v2/workspaces/:id/tree). */
export type TreeNode =
  | { id: string; type: "folder"; name: string; icon?: string | null; children: TreeNode[] }
  | { id: string; type: "model"; modelId: string; namespace: string | null; name: string | null; missing: boolean }
  | { id: string; type: "entry"; entryId: string; modelId: string | null; namespace: string | null; title: string | null; missing: boolean }
  | { id: string; type: "media_folder"; mediaFolderId: string };

/** A version of an entry (GET /v2/model-instances/:id/versions). */
export interface Version {
  id: string;
  number: number;
  createdAt: string;
  createdBy: string;
  published: boolean;
  data: Record<string, unknown>;
}

/** A member of a project (GET /v2/projects/:id/members). */
export interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: string;
}

/** The server's reading of a wall time in a zone: the instant, its offset, and a DST note. */
export interface Resolved {
  at: string;
  offset: string;
  note?: string | null;
}

/** A scheduled publish or unpublish (interface.md, Scheduled action). */
export interface ScheduledAction {
  id: string;
  action: "publish" | "unpublish";
  wallTime: string;
  timezone: string;
  resolved: Resolved;
  status: "pending" | "running" | "done" | "failed" | "dead" | "cancelled";
  /** The locales the action moves, when it names them (issue 28). */
  locales?: string[];
}

/** A folder of the media library (GET /v2/media-folders): a tree by `parent`. */
export interface MediaFolder {
  id: string;
  name: string;
  parent: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The recorded kind of a file (interface.md MediaKind). */
export type MediaKind = "image" | "video" | "audio" | "document" | "pdf" | "file" | "unknown";

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
export const MEDIA_SORTS = ["-createdAt", "createdAt", "name", "-name", "size", "-size"] as const;
export type MediaSort = (typeof MEDIA_SORTS)[number];
