// Live preview (issue 26 item 9): the model's preview URL in a pane beside the form, at desktop,
// tablet or phone width. It mints a short-lived preview token (POST /v2/preview-tokens, an hour;
// never a stored key) and frames the site through /admin/preview-frame, whose CSP names the
// site's origin (the admin page's own CSP frames only itself). The site is reloaded after every
// save and sent the draft as it is typed: `postMessage({ type: "capa:draft", ... })` to the
// site's origin, a moment after typing stops, for sites that render drafts live.
import { useEffect, useMemo, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import { previewUrlFor } from "../../api/models.ts";
import type { Entry, Model } from "../../api/types.ts";
import { plainValues } from "../../fields/pending-text.ts";

const WIDTHS = { Desktop: null, Tablet: 768, Phone: 390 } as const;
type Width = keyof typeof WIDTHS;

/** How long after the last keystroke the draft is sent to the site. */
const SEND_AFTER_MS = 300;

interface Props {
  model: Model;
  /** The saved entry (its id, status and saved values); the pane reloads when it changes. */
  entry: Entry;
  projectId: string;
  /** The values on screen, saved or not. */
  values: Record<string, unknown>;
  title: string;
}

export function PreviewPane({ model, entry, projectId, values, title }: Props) {
  const [width, setWidth] = useState<Width>("Desktop");
  const frame = useRef<HTMLIFrameElement>(null);
  // A token per pane and hour: asked again when it is within five minutes of its end.
  const token = useQuery({
    queryKey: ["preview-token", projectId, entry.id],
    queryFn: () => api.previews.create([entry.id]),
    staleTime: 55 * 60_000,
    gcTime: 0,
  });
  const site = token.data ? previewUrlFor(model, entry, token.data.token) : null;
  const origin = useMemo(() => (site ? new URL(site).origin : null), [site]);
  // The saved version is part of the address, so every save reloads the site.
  const src = site
    ? `/admin/preview-frame?${new URLSearchParams({ project: projectId, token: token.data!.token, url: site, v: String(entry.version) })}`
    : null;

  // The draft, sent to the site's page inside the frame a moment after typing stops.
  useEffect(() => {
    if (!origin) return;
    const t = setTimeout(() => {
      const inner = frame.current?.contentWindow?.frames[0];
      inner?.postMessage({ type: "capa:draft", entryId: entry.id, model: model.namespace, data: plainValues(values) }, origin);
    }, SEND_AFTER_MS);
    return () => clearTimeout(t);
  }, [values, origin, entry.id, model.namespace]);

  return (
    <section className="card preview-pane" aria-labelledby="preview-title">
      <div className="toolbar">
        <h2 id="preview-title">Preview</h2>
        <fieldset className="segmented" aria-label="Preview width">
          {(Object.keys(WIDTHS) as Width[]).map((w) => (
            <label key={w} className={width === w ? "on" : undefined}>
              <input type="radio" name="preview-width" value={w} checked={width === w} onChange={() => setWidth(w)} />
              {w}
            </label>
          ))}
        </fieldset>
        <span className="spacer" />
        {site && (
          <a href={site} target="_blank" rel="noopener noreferrer">
            Open in a new tab
          </a>
        )}
      </div>
      {token.isError && <p role="alert">{token.error.message}</p>}
      {src ? (
        <div className="preview-stage">
          <iframe
            ref={frame}
            src={src}
            title={`Preview of ${title}`}
            className="preview-frame"
            // The width attribute, not a style (the CSP allows no inline style).
            width={WIDTHS[width] ?? undefined}
          />
        </div>
      ) : (
        !token.isError && <p className="muted">Getting a preview token…</p>
      )}
    </section>
  );
}
