// TypeBox models of the media library's bodies and answers (decisions.md 10). The domain adds
// what a shape cannot say: a folder or parent names a folder of this project, alt and title fit
// in 16 KB of UTF-8, a file name is one a file may have, a folder never moves into itself.
import { type TProperties, Type } from "@sinclair/typebox";
import { nullable, oneOf, record, Time, Uuid } from "../access/schema-kit.ts";
import { MEDIA_KINDS } from "../models/fields.ts";
import { MAX_FIELD_BYTES } from "./intake.ts";
import { MEDIA_SORTS } from "./list.ts";

const text = (field: string) => Type.String({ error: `${field} must be text of at most ${MAX_FIELD_BYTES} bytes` });
const unit = (field: string) => Type.Number({ minimum: 0, maximum: 1, error: `focalPoint.${field} must be a number from 0 to 1.` });

const EDITABLE = ["alt", "title", "folder", "focalPoint", "filename"];

/** The focal point of an image: `{ x, y }` in 0-1 from the left and the top, or null for the centre. */
export const FocalPointModel = Type.Union(
  [Type.Null(), Type.Object({ x: unit("x"), y: unit("y") }, { additionalProperties: false, unknown: "focalPoint has only x and y; {key} is not one." })],
  { error: "focalPoint must be { x, y } with numbers from 0 to 1, or null." },
);

/** PATCH /v2/media/:id. */
export const UpdateMediaBody = Type.Object(
  {
    alt: Type.Optional(text("alt")),
    title: Type.Optional(text("title")),
    folder: Type.Optional(Type.Union([Type.Null(), Type.String()], { error: "folder names no media folder of this project: {value}" })),
    focalPoint: Type.Optional(FocalPointModel),
    filename: Type.Optional(Type.String({ error: "filename must be text" })),
  },
  { $id: "UpdateMediaBody", additionalProperties: false, unknown: `{field} cannot be edited; send ${EDITABLE.join(", ")}` },
);

/** POST /v2/media: multipart/form-data, read by the upload's own streaming reader. */
export const UploadForm = Type.Object(
  {
    file: Type.Union(
      [Type.String({ contentMediaType: "application/octet-stream" }), Type.Array(Type.String({ contentMediaType: "application/octet-stream" }))],
      {
        description: "One or more parts named file.",
      },
    ),
    alt: Type.Optional(Type.String()),
    title: Type.Optional(Type.String()),
    folder: Type.Optional(Type.String({ description: "A folder id; empty for the root." })),
  },
  { $id: "UploadForm" },
);

/** PUT /v2/media/:id/file: one file, read by the upload's own streaming reader. */
export const ReplaceForm = Type.Object(
  { file: Type.String({ contentMediaType: "application/octet-stream", description: "Exactly one part named file." }) },
  { $id: "ReplaceForm" },
);

export const UploadQuery = Type.Object({
  duplicate: Type.Optional(
    Type.String({ enum: ["true", "false"], description: "true: keep a second copy of bytes the library holds already (default: 409 duplicate_file)." }),
  ),
});

const FolderName = Type.String({ maxLength: 120, pattern: "\\S", error: "name must be a folder name of 1 to 120 characters" });
const Parent = Type.Union([Type.Null(), Type.String()], { error: "parent names no media folder of this project: {value}" });
const folderBody = <P extends TProperties>(props: P, $id: string) =>
  Type.Object(props, { $id, additionalProperties: false, unknown: "{field} is not a folder field; send name and parent" });

/** POST /v2/media-folders. */
export const CreateFolderBody = folderBody({ name: FolderName, parent: Type.Optional(Parent) }, "CreateFolderBody");

/** PATCH /v2/media-folders/:id. */
export const UpdateFolderBody = folderBody({ name: Type.Optional(FolderName), parent: Type.Optional(Parent) }, "UpdateFolderBody");

export const MediaRecord = record(
  {
    id: Uuid,
    filename: Type.String(),
    kind: oneOf(MEDIA_KINDS),
    mimeType: Type.String(),
    size: Type.Integer(),
    width: nullable(Type.Integer()),
    height: nullable(Type.Integer()),
    duration: Type.Optional(nullable(Type.Number())),
    alt: Type.String(),
    title: Type.String(),
    folder: nullable(Type.String()),
    focalPoint: nullable(record({ x: Type.Number(), y: Type.Number() })),
    checksum: Type.String({ description: "sha256 of the bytes, hex." }),
    placeholder: nullable(Type.String({ description: "ThumbHash, base64; images only." })),
    url: Type.String(),
    createdAt: Time,
    updatedAt: Time,
    createdBy: nullable(Type.String()),
  },
  { $id: "MediaRecord" },
);
/** A grid thumbnail (thumbnails.ts): the 160 px WebP, and a srcset with the 320 px one. */
export const Thumbnail = nullable(
  record({ url: Type.String(), srcset: Type.String() }, { description: "Raster images only; null for other files. Never refused by the variant limits." }),
);
export const MediaPage = record({
  data: Type.Array(Type.Composite([MediaRecord, Type.Object({ thumbnail: Type.Optional(Thumbnail) })])),
  next: nullable(Type.String({ description: "The cursor of the next page (`after=`, with the same sort)." })),
  total: Type.Integer({ minimum: 0, description: "How many files match the filter (folder, kind, q), on every page." }),
});
export const Uploaded = Type.Union([MediaRecord, record({ data: Type.Array(MediaRecord) })], {
  description: "The record of one file, or { data } for several.",
});
export const MediaUsage = record({
  entries: Type.Array(
    record({ id: Uuid, modelId: Uuid, namespace: Type.String(), title: nullable(Type.String()), copies: Type.Array(oneOf(["draft", "published"])) }),
  ),
});
export const MediaFolder = record({ id: Uuid, name: Type.String(), parent: nullable(Type.String()), createdAt: Time, updatedAt: Time }, { $id: "MediaFolder" });
export const FolderList = record({ data: Type.Array(MediaFolder) });
export const MediaQuery = Type.Object({
  folder: Type.Optional(Type.String({ description: "A folder id; empty for the root." })),
  kind: Type.Optional(oneOf(MEDIA_KINDS)),
  q: Type.Optional(Type.String({ description: "Matches filename, title and alt." })),
  limit: Type.Optional(Type.String()),
  after: Type.Optional(Type.String({ description: "The next cursor of a previous page." })),
  sort: Type.Optional(
    oneOf(MEDIA_SORTS, {
      description: "-createdAt (default, newest first), createdAt, name, -name (A to Z without case), size, -size; ties go by upload order.",
    }),
  ),
  thumbnails: Type.Optional(
    Type.String({ enum: ["true", "false"], description: "true: each record gets `thumbnail` (grid URLs), and the page's thumbnails are started." }),
  ),
});
export const DeleteMediaQuery = Type.Object({
  force: Type.Optional(Type.String({ enum: ["true", "false"], description: "Delete even while entries use it." })),
});
