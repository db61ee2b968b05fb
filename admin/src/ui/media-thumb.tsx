// A file's small preview (design/admin.md, Media fields): the ThumbHash placeholder at once, then
// the width variant from this server's /media path. The server lets one client start only so many
// new variants at a time and answers 429 past that (decisions.md section 10), so a grid of fresh
// files asks again for the ones refused, a little later each time, until every picture is in.
import { useEffect, useMemo, useState } from "react";
import { thumbHashToDataURL } from "thumbhash";
import { type MediaFile, thumbUrl } from "../api/media.ts";
import { KIND_WORDS } from "../api/types.ts";
import { admit, whenAdmitted } from "./thumb-gate.ts";

/** How many times a refused preview is asked for again, and the first wait (doubled each time). */
const RETRIES = 6;
const FIRST_WAIT_MS = 800;

/** The data URL of a record's ThumbHash, or null. */
function placeholderOf(hash: string | null): string | null {
  if (!hash) return null;
  try {
    return thumbHashToDataURL(Uint8Array.from(atob(hash), (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** The preview of `file` at `width` px (a word for the kind when it is not a picture); `alt` describes it. */
export function MediaThumb({ file, width, alt = "" }: { file: MediaFile; width: number; alt?: string }) {
  const src = thumbUrl(file, width);
  const blur = useMemo(() => placeholderOf(file.placeholder), [file.placeholder]);
  const [attempt, setAttempt] = useState(0);
  const [failed, setFailed] = useState(false);
  const [loaded, setLoaded] = useState(false);
  // Asked for only when the server will make it (thumb-gate.ts); the placeholder shows meanwhile.
  const [admitted, setAdmitted] = useState(() => !src || admit(src));
  useEffect(() => {
    if (admitted || !src) return;
    return whenAdmitted(src, () => setAdmitted(true));
  }, [admitted, src]);
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

  if (!src) {
    return (
      // The kind is said in words beside every preview, so this box is only for the eye (the
      // word is CSS content, out of the tile's text and name).
      <span className="thumb thumb-kind" data-kind={KIND_WORDS[file.kind] ?? file.kind} aria-hidden="true" />
    );
  }
  return (
    <span className="thumb" style={blur && !loaded ? { backgroundImage: `url(${blur})` } : undefined}>
      {!failed && admitted && (
        <img
          // A new element per attempt, so the browser asks again instead of reusing the refusal.
          key={attempt}
          src={src}
          alt={alt}
          width={width}
          height={file.width && file.height ? Math.round((width * file.height) / file.width) : undefined}
          loading="lazy"
          onLoad={() => setLoaded(true)}
          onError={() => setFailed(true)}
        />
      )}
    </span>
  );
}
