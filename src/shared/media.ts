// The types of the media library routes' answers (src/http/v2/media.ts), made from their
// TypeBox models; their bodies are in bodies.ts. Type-only.
import type { Static } from "@sinclair/typebox";
import type {
  MediaFolder as MediaFolderModel,
  MediaPage as MediaPageModel,
  MediaQuery as MediaQueryModel,
  MediaRecord,
  MediaUsage as MediaUsageModel,
  Thumbnail as ThumbnailModel,
} from "../domain/media/bodies.ts";

/** A file of the library: the record of decisions.md section 10, and its kind. */
export type MediaFile = Static<typeof MediaRecord>;
export type MediaKind = MediaFile["kind"];

/** A raster image's grid thumbnails (the 160 px URL and a srcset with 320 px), null for other files. */
export type Thumbnail = Static<typeof ThumbnailModel>;

/** One page of the library (GET /v2/media), and a file as the grid lists it. */
export type MediaPage = Static<typeof MediaPageModel>;
export type ListedFile = MediaPage["data"][number];

/** The entries that reference a file (GET /v2/media/:id/usage, and the `entries` of 409 media_in_use), and one of them. */
export type MediaUsage = Static<typeof MediaUsageModel>;
export type MediaUse = MediaUsage["entries"][number];

/** The library list's query (GET /v2/media): a folder, a kind, text, an order, a page. */
export type MediaQuery = Static<typeof MediaQueryModel>;

/** A folder of the media library (GET /v2/media-folders): a tree by `parent`. */
export type MediaFolder = Static<typeof MediaFolderModel>;
