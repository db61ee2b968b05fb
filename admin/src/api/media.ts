// The media library routes of /v2 (decisions.md section 10), shared by the library screens and
// the entry editor's media fields. Uploads go one file per request through XMLHttpRequest, so
// each file reports its own progress and its own refusal, with the same headers `call` sends.
import type { CreateFolderBody, UpdateFolderBody, UpdateMediaBody } from "../../../src/shared/bodies.ts";
import type { MediaFile, MediaPage, MediaUsage } from "../../../src/shared/media.ts";
import { ApiError, call, refusalOf, requestHeaders } from "./client.ts";
import type { MediaFolder, MediaKind, MediaSort } from "./types.ts";

export { MEDIA_SORTS, type MediaSort } from "./types.ts";

export type { UpdateMediaBody as MediaPatch } from "../../../src/shared/bodies.ts";
export type { ListedFile, MediaFile, MediaUse, Thumbnail } from "../../../src/shared/media.ts";

/** Each order in words, for the sort choice. */
export const SORT_WORDS: Record<MediaSort, string> = {
  "-createdAt": "Newest first",
  createdAt: "Oldest first",
  name: "Name, A to Z",
  "-name": "Name, Z to A",
  size: "Smallest first",
  "-size": "Largest first",
};

/** The list's filters: a folder id (`""` the files in no folder), a kind, text, the order (absent: newest first) and the page size (absent: 40). */
export interface MediaFilter {
  folder?: string;
  kind?: MediaKind;
  q?: string;
  sort?: MediaSort;
  limit?: number;
}

/** The library's page sizes (the server's largest is 100). */
export const MEDIA_PAGE_SIZES = [40, 100] as const;

/** How one upload is going: the share of bytes sent, from 0 to 1. */
export type Progress = (sent: number) => void;

/**
 * Sends one file as multipart (`file` part) by XMLHttpRequest, which reports the bytes sent, with
 * the headers `call` sends. The answer is the record; a refusal rejects with its ApiError.
 */
async function sendFile(method: "POST" | "PUT", url: string, file: File, fields: Record<string, string>, onProgress?: Progress): Promise<MediaFile> {
  const body = new FormData();
  body.append("file", file, file.name);
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  const headers = await requestHeaders();
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      let json: Record<string, unknown> | null = null;
      try {
        json = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        // A body that is not JSON leaves the status to speak.
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(json as unknown as MediaFile);
      else reject(refusalOf(xhr.status, json));
    };
    xhr.onerror = () => reject(new Error("The upload was cut off: the connection to the server failed."));
    xhr.send(body);
  });
}

/**
 * Uploads one file into the library (POST /v2/media). Bytes the library holds already are refused
 * with 409 duplicate_file (its `existing` record: see `duplicateOf`) unless `duplicate` is set.
 */
function upload(file: File, opts: { folder?: string | null; onProgress?: Progress; duplicate?: boolean } = {}): Promise<MediaFile> {
  return sendFile("POST", opts.duplicate ? "/v2/media?duplicate=true" : "/v2/media", file, opts.folder ? { folder: opts.folder } : {}, opts.onProgress);
}

/** The file the library holds already with the bytes of a refused upload (409 duplicate_file), or null. */
export function duplicateOf(e: unknown): MediaFile | null {
  return e instanceof ApiError && e.code === "duplicate_file" && e.body?.existing ? (e.body.existing as MediaFile) : null;
}

/** The library routes, one function per documented route. */
export const mediaApi = {
  /**
   * A page of files. Not `thumbnails=true`: that starts both thumbnails of all 40 files at once,
   * while the grid shows about a dozen at 1x; the tiles ask for their own exempt thumbnails as
   * they come into view (ui/media-thumb.tsx), which is half the renders and the first screen's first.
   */
  list: (filter: MediaFilter, after: string | null, limit = filter.limit ?? 40) =>
    call<MediaPage>("GET", "/v2/media", { query: { folder: filter.folder, kind: filter.kind, q: filter.q, sort: filter.sort, after, limit } }),
  /**
   * Every file that matches `filter` (for "Select all N that match"), read 100 at a time by
   * cursor before anything is changed, so moving or deleting them cannot shift the pages read.
   */
  async everyMatch(filter: MediaFilter): Promise<MediaFile[]> {
    const out: MediaFile[] = [];
    let after: string | null = null;
    do {
      const page: MediaPage = await mediaApi.list(filter, after, 100);
      out.push(...page.data);
      after = page.next;
    } while (after);
    return out;
  },
  get: (id: string) => call<MediaFile>("GET", `/v2/media/${id}`),
  update: (id: string, patch: UpdateMediaBody) => call<MediaFile>("PATCH", `/v2/media/${id}`, { body: patch }),
  /** Deletes a file; without `force` a file in use answers 409 media_in_use naming the entries. */
  remove: (id: string, force = false) => call<void>("DELETE", `/v2/media/${id}`, { query: { force: force ? "true" : undefined } }),
  usage: (id: string) => call<MediaUsage>("GET", `/v2/media/${id}/usage`).then((r) => r.entries),
  upload,
  /** Replaces a file's bytes (same id, new checksum and URL); 409 file_kind_in_use names the entries. */
  replace: (id: string, file: File, onProgress?: Progress) => sendFile("PUT", `/v2/media/${id}/file`, file, {}, onProgress),
  folders: {
    create: (name: string, parent: string | null) => call<MediaFolder>("POST", "/v2/media-folders", { body: { name, parent } satisfies CreateFolderBody }),
    update: (id: string, patch: UpdateFolderBody) => call<MediaFolder>("PATCH", `/v2/media-folders/${id}`, { body: patch }),
    remove: (id: string) => call<void>("DELETE", `/v2/media-folders/${id}`),
  },
};

/** Query keys of the library; everything of a project's library sits under `all`. */
export const mediaKeys = {
  all: (project: string) => ["media", project] as const,
  list: (project: string, filter: MediaFilter) => ["media", project, "list", filter] as const,
  file: (project: string, id: string) => ["media", project, "file", id] as const,
  usage: (project: string, id: string) => ["media", project, "usage", id] as const,
};

/**
 * A preview URL of a file at `width` px in the best format the browser takes, from this server's
 * own /media path (the record's URL may name a CDN host the admin's CSP refuses); null for files
 * that are not raster images.
 */
export function thumbUrl(f: Pick<MediaFile, "kind" | "mimeType" | "url">, width = 160): string | null {
  return f.kind === "image" && !f.mimeType.includes("svg") ? `${new URL(f.url).pathname}?w=${width}&fm=auto` : null;
}

const units = ["bytes", "KB", "MB", "GB"];

/** A size in bytes as people read it (1,024 bytes to the KB). */
export function sizeWords(bytes: number): string {
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${n.toFixed(n < 10 ? 1 : 0)} ${units[u]}`;
}

/** An upload's refusal in words for the row of its file (the limit in KB or MB rather than bytes). */
export function uploadProblem(e: unknown): string {
  if (e instanceof ApiError && e.code === "file_too_large" && typeof e.body?.limit === "number") return `Too large: the limit is ${sizeWords(e.body.limit)}.`;
  if (e instanceof ApiError && e.code === "file_empty") return "The file is empty.";
  return e instanceof Error ? e.message : String(e);
}
