// The media record of decisions.md section 10 and the small shapes the media modules pass around.

/** The recorded kind of a file (interface.md `MediaKind`); not a MIME type. */
export type MediaKind = "image" | "video" | "audio" | "document" | "pdf" | "file" | "unknown";

/** Every MediaKind, in the order interface.md lists them. */
export const MEDIA_KINDS: readonly MediaKind[] = ["image", "video", "audio", "document", "pdf", "file", "unknown"];

/** A focal point in 0-1 image coordinates (0,0 is the top left corner). */
export interface FocalPoint {
  x: number;
  y: number;
}

/** The media record of decisions.md section 10, as the /v2 routes answer it. */
export interface MediaRecord {
  id: string;
  filename: string;
  kind: MediaKind;
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
  duration?: number | null;
  alt: string;
  title: string;
  folder: string | null;
  focalPoint: FocalPoint | null;
  /** sha256 of the bytes, lower-case hex. */
  checksum: string;
  /** ThumbHash of images, base64; null for other kinds. */
  placeholder: string | null;
  url: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

/** What serving a file needs to know about it: the record's stable facts plus where its bytes are. */
export interface ServableMedia {
  id: string;
  filename: string;
  kind: MediaKind;
  mimeType: string;
  size: number;
  /** Upright pixels, from the upload's probe; null for files that have none. */
  width: number | null;
  height: number | null;
  checksum: string;
  focalPoint: FocalPoint | null;
  /** The key of the bytes in the media store (see `mediaStorageKey`). */
  storageKey: string;
}
