// A file's small preview (design/admin.md, Media fields): the ThumbHash placeholder at once, then
// the grid's thumbnail from this server's /media path. The grid's two thumbnails (`?w=160&fm=webp`
// and `?w=320&fm=webp`, 1x and 2x of a tile) are exempt from the server's bucket of new variants:
// they wait their turn in the render queue instead of being refused (docs/media.md, Thumbnails).
// So the grid asks for every picture in view at once (lazy, the browser picks 1x or 2x from the
// srcset) and never meets a 429 of its own server. A picture that fails anyway (the connection
// dropped) is asked again a little later.
import { useEffect, useState } from "react";
import { thumbHashToDataURL } from "thumbhash";
import type { ListedFile, Thumbnail } from "../api/media.ts";
import { KIND_WORDS } from "../api/types.ts";

/** How many times a failed preview is asked for again, and the first wait (doubled each time). */
const RETRIES = 4;
const FIRST_WAIT_MS = 800;

/** Decoded placeholders, so a grid shown again (another folder and back) decodes none twice. */
const decoded = new Map<string, string | null>();

/** The data URL of a record's ThumbHash, or null. */
function placeholderOf(hash: string | null): string | null {
  if (!hash) return null;
  let url = decoded.get(hash);
  if (url !== undefined) return url;
  try {
    url = thumbHashToDataURL(Uint8Array.from(atob(hash), (c) => c.charCodeAt(0)));
  } catch {
    url = null;
  }
  if (decoded.size > 2000) decoded.clear();
  decoded.set(hash, url);
  return url;
}

/** An absolute file URL as a path of this server (the record may name a CDN host; tests run on another port). */
const local = (url: string) => {
  const u = new URL(url, location.href);
  return u.pathname + u.search;
};

/**
 * The thumbnails of a file: the server's when the list gave them, else the same two URLs made
 * from the record (a raster image the transforms take: it has dimensions and is not SVG).
 */
export function thumbnailOf(file: ListedFile): Thumbnail | null {
  if (file.thumbnail !== undefined) {
    if (!file.thumbnail) return null;
    return { url: local(file.thumbnail.url), srcset: file.thumbnail.srcset.replace(/\S+(?= \d+w)/g, (u) => local(u)) };
  }
  if (file.kind !== "image" || file.mimeType.includes("svg") || !file.width) return null;
  const base = new URL(file.url, location.href).pathname;
  return { url: `${base}?w=160&fm=webp`, srcset: `${base}?w=160&fm=webp 160w, ${base}?w=320&fm=webp 320w` };
}

/** The preview of `file` in a tile of `width` px (a word for the kind when it is not a picture); `alt` describes it. */
export function MediaThumb({ file, width, alt = "" }: { file: ListedFile; width: number; alt?: string }) {
  const thumb = thumbnailOf(file);
  // Decoded after the tiles are in the page (an effect runs once the browser has laid them out and
  // started their pictures), so a screen of 40 placeholders never holds back the first request;
  // one decoded before comes at once.
  const [blur, setBlur] = useState(() => (file.placeholder ? (decoded.get(file.placeholder) ?? null) : null));
  useEffect(() => setBlur(placeholderOf(file.placeholder)), [file.placeholder]);
  const [attempt, setAttempt] = useState(0);
  const [failed, setFailed] = useState(false);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (!failed || attempt >= RETRIES) return;
    const t = setTimeout(
      () => {
        setFailed(false);
        setAttempt((a) => a + 1);
      },
      FIRST_WAIT_MS * 2 ** attempt,
    );
    return () => clearTimeout(t);
  }, [failed, attempt]);

  if (!thumb) {
    return (
      // The kind is said in words beside every preview, so this box is only for the eye (the
      // word is CSS content, out of the tile's text and name).
      <span className="thumb thumb-kind" data-kind={KIND_WORDS[file.kind] ?? file.kind} aria-hidden="true" />
    );
  }
  return (
    <span className="thumb" style={blur && !loaded ? { backgroundImage: `url(${blur})` } : undefined}>
      {!failed && (
        <img
          // A new element per attempt, so the browser asks again instead of reusing the failure.
          key={attempt}
          src={thumb.url}
          srcSet={thumb.srcset}
          sizes={`${width}px`}
          alt={alt}
          width={width}
          height={file.width && file.height ? Math.round((width * file.height) / file.width) : undefined}
          loading="lazy"
          decoding="async"
          // Hidden until it has come, so the placeholder shows instead of a half-drawn picture.
          className={loaded ? undefined : "thumb-loading"}
          onLoad={() => setLoaded(true)}
          onError={() => setFailed(true)}
        />
      )}
    </span>
  );
}
