// The media library under /v2/media and /v2/media-folders, on both mounts (decisions.md section
// 10). Uploads stream through their own reader (the intake) with CAPA_MEDIA_MAX_BYTES per file,
// never through the JSON routes' 1 MB limit, and honour Idempotency-Key.
import { type AnyElysia, Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { managementAuth, MOUNTS, type Mount, once } from "../plugins/management.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import {
  CreateFolderBody,
  DeleteMediaQuery,
  FolderList,
  MediaFolder,
  MediaPage,
  MediaQuery,
  MediaRecord,
  MediaUsage,
  ReplaceForm,
  UpdateFolderBody,
  UpdateMediaBody,
  Uploaded,
  UploadForm,
  UploadQuery,
} from "../../domain/media/bodies.ts";
import { createFolder, deleteFolder, listFolders, updateFolder } from "../../domain/media/folders.ts";
import { discardStored, type IngestDeps, ingestUpload, type IngestedFile } from "../../domain/media/ingest.ts";
import { createRecords, deleteMedia, updateMedia } from "../../domain/media/library.ts";
import { listMedia, listMediaRows, mediaOrFail, recordOf, servableOf } from "../../domain/media/records.ts";
import { thumbnailOf, warmThumbnails } from "../../domain/media/thumbnails.ts";
import type { MediaParts, MediaRuntime } from "../../domain/media/runtime.ts";
import { mediaUsage } from "../../domain/media/usage.ts";
import { type Replaced, replaceFile } from "../../domain/media/replace.ts";
import { badField } from "../../errors.ts";

/** The files of the library, on one mount. */
/** What an upload (a new file or a replacement) is read with: this app's store, limits and render queue. */
function ingestDeps(s: Services, parts: MediaParts, projectId: string, client: string): IngestDeps {
  return {
    store: parts.store,
    ids: s.ids,
    projectId,
    dir: parts.tmpDir,
    maxBytes: s.config.media.maxBytes,
    maxPixels: s.config.media.maxPixels,
    queue: parts.queue,
    client,
  };
}

function fileGroup(s: Services, rt: MediaRuntime, mount: Mount): AnyElysia {
  return new Elysia({ prefix: `${mount}/media` })
    .use(managementAuth(s, mount))
    .get(
      "/",
      async ({ project: h, query, actor }) => {
        const q = query as Record<string, string>;
        if (q.thumbnails === undefined || q.thumbnails === "false") return listMedia(s, h, q);
        if (q.thumbnails !== "true") badField("thumbnails", "thumbnails must be true or false");
        const page = listMediaRows(h, q);
        // The grid's thumbnails: their URLs, and their renders started now (not awaited).
        const parts = await rt.ready();
        warmThumbnails(parts.variants, parts.store, page.rows.map(servableOf), actor, (err) =>
          s.log.warn("thumbnail not made", { projectId: h.id, err: String(err) }),
        );
        const data = page.rows.map((r) => ({ ...recordOf(s, h.id, r), thumbnail: thumbnailOf(s.config.mediaBaseUrl, h.id, r) }));
        return { data, next: page.next, total: page.total };
      },
      {
        scope: "media:read",
        detail: doc({
          summary:
            "The library's files (newest first unless sort says otherwise) with the total that match; thumbnails=true adds each image's grid thumbnails and starts the ones not made yet",
          query: MediaQuery,
          answers: { 200: MediaPage },
        }),
      },
    )
    .post(
      "/",
      async ({ principal: p, project: h, actor, request, set, query }) => {
        const duplicate = (query as Record<string, string>).duplicate;
        if (duplicate !== undefined && duplicate !== "true" && duplicate !== "false") badField("duplicate", "duplicate must be true or false");
        const parts = await rt.ready();
        const { files, fields } = await ingestUpload(request, ingestDeps(s, parts, h.id, actor));
        // The Idempotency-Key compares what was uploaded: each file's name and bytes, and the fields.
        const fingerprint = { files: files.map((f: IngestedFile) => ({ filename: f.filename, checksum: f.checksum })), fields };
        let kept = false;
        try {
          return once(s, h, p, request, fingerprint, set, () => {
            const records = createRecords(s, h, actor, files, fields, duplicate === "true");
            kept = true;
            rt.backupsDue?.add(h.id);
            return { status: 201, body: records.length === 1 ? records[0] : { data: records } };
          });
        } finally {
          // A refused field or a replayed answer keeps none of the bytes this request stored.
          if (!kept) await discardStored(parts.store, files);
        }
      },
      {
        scope: "media:create",
        parse: "none",
        detail: doc({
          summary: "Upload one or more files (multipart/form-data, streamed); bytes the library holds already are 409 duplicate_file unless duplicate=true",
          upload: UploadForm,
          query: UploadQuery,
          answers: { 201: Uploaded },
        }),
      },
    )
    .put(
      "/:id/file",
      async ({ project: h, actor, params, request }) => {
        // The file must exist before its replacement is read and stored.
        mediaOrFail(h, params.id);
        const parts = await rt.ready();
        const { files, fields } = await ingestUpload(request, { ...ingestDeps(s, parts, h.id, actor), maxFiles: 1 });
        let out: Replaced;
        try {
          const extra = Object.keys(fields)[0];
          if (extra !== undefined) badField(extra, `${extra} is not replaced with the file; change it with PATCH /v2/media/:id`);
          out = replaceFile(s, h, actor, params.id, files[0]!);
        } catch (err) {
          await discardStored(parts.store, files);
          throw err;
        }
        // Committed: the bytes no record names any more go, and the old file's variants with them.
        await parts.store.delete(out.discardKey).catch((err) => s.log.warn("media bytes not removed", { key: out.discardKey, err: String(err) }));
        if (out.changed) {
          await parts.cache.dropMedia(params.id);
          rt.backupsDue?.add(h.id);
        }
        return out.record;
      },
      {
        scope: "media:update",
        parse: "none",
        detail: doc({
          summary:
            "Replace a file's bytes (multipart, one part named file): same id, new checksum and URL; refused (409 file_kind_in_use) when image fields use it and the new file is not an image",
          upload: ReplaceForm,
          answers: { 200: MediaRecord },
        }),
      },
    )
    .get("/:id", ({ project: h, params }) => recordOf(s, h.id, mediaOrFail(h, params.id)), {
      scope: "media:read",
      detail: doc({ summary: "One file's record", answers: { 200: MediaRecord } }),
    })
    .get(
      "/:id/usage",
      ({ project: h, params }) => {
        mediaOrFail(h, params.id);
        return { entries: mediaUsage(h, params.id) };
      },
      { scope: "media:read", detail: doc({ summary: "The entries whose draft or published copy uses the file", answers: { 200: MediaUsage } }) },
    )
    .patch("/:id", async ({ project: h, actor, params, request }) => updateMedia(s, h, actor, params.id, await typedBody(request, UpdateMediaBody)), {
      scope: "media:update",
      detail: doc({ summary: "Edit a file's alt, title, folder, focal point or name", body: UpdateMediaBody, answers: { 200: MediaRecord } }),
    })
    .delete(
      "/:id",
      async ({ project: h, actor, params, query, set }) => {
        const force = (query as Record<string, string>).force;
        if (force !== undefined && force !== "true" && force !== "false") badField("force", "force must be true or false");
        const parts = await rt.ready();
        const row = deleteMedia(s, h, actor, params.id, force === "true");
        // The record is gone (committed): its bytes and variants go before the answer.
        await parts.store.delete(row.storageKey).catch((err) => s.log.warn("media bytes not removed", { key: row.storageKey, err: String(err) }));
        await parts.cache.dropMedia(row.id);
        set.status = 204;
        return null;
      },
      {
        scope: "media:delete",
        detail: doc({ summary: "Delete a file (409 media_in_use while used, unless force=true)", query: DeleteMediaQuery, answers: { 204: null } }),
      },
    );
}

/** The folders of the library, on one mount. */
function folderGroup(s: Services, mount: Mount): AnyElysia {
  return new Elysia({ prefix: `${mount}/media-folders` })
    .use(managementAuth(s, mount))
    .get("/", ({ project: h }) => listFolders(h), { scope: "media:read", detail: doc({ summary: "Every media folder", answers: { 200: FolderList } }) })
    .post(
      "/",
      async ({ project: h, request, set }) => {
        const f = createFolder(s, h, await typedBody(request, CreateFolderBody));
        set.status = 201;
        return f;
      },
      { scope: "media:create", detail: doc({ summary: "Create a media folder", body: CreateFolderBody, answers: { 201: MediaFolder } }) },
    )
    .patch("/:id", async ({ project: h, params, request }) => updateFolder(s, h, params.id, await typedBody(request, UpdateFolderBody)), {
      scope: "media:update",
      detail: doc({ summary: "Rename or move a media folder", body: UpdateFolderBody, answers: { 200: MediaFolder } }),
    })
    .delete(
      "/:id",
      ({ project: h, params, set }) => {
        deleteFolder(s, h, params.id);
        set.status = 204;
        return null;
      },
      { scope: "media:delete", detail: doc({ summary: "Delete an empty media folder (409 folder_not_empty)", answers: { 204: null } }) },
    );
}

/** Every media management route, on both mounts. */
export function mediaRoutes(s: Services, rt: MediaRuntime): AnyElysia {
  const app = new Elysia();
  for (const mount of MOUNTS) app.use(fileGroup(s, rt, mount)).use(folderGroup(s, mount));
  return app;
}
