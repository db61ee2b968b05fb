// The live preview pane's frame (issue 26 item 9): GET /admin/preview-frame?project=&token=&url=
// answers a tiny page that frames the model's preview URL. The admin page itself is the same for
// every project (it is served before anyone signs in, and one server holds thousands of
// projects), so its CSP cannot name each project's site; this page's CSP is made per request and
// names exactly one origin in `frame-src`: the origin of the preview URL of the model of the
// entry the preview token was minted for. The token (short-lived, POST /v2/preview-tokens) is
// the proof that the person may preview that entry; no stored key is involved, and a URL of any
// other origin is refused. Only the admin may frame this page (`frame-ancestors 'self'`), and it
// runs no script at all.
import { Elysia } from "elysia";
import { checkPreviewToken } from "../domain/preview/service.ts";
import { allModels } from "../domain/models/catalog.ts";
import { getRow } from "../domain/entries/service.ts";
import type { Services } from "../services.ts";

/** The CSP of the preview frame page: one framed origin, one nonce'd style, nothing else. */
export function previewFrameCsp(origin: string | null, nonce: string): string {
  const frame = origin ? `frame-src ${origin}` : "frame-src 'none'";
  return `default-src 'none'; ${frame}; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'`;
}

const HEADERS = { "x-content-type-options": "nosniff", "referrer-policy": "same-origin", "x-frame-options": "SAMEORIGIN", "cache-control": "no-store" };

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function answer(status: number, body: string, origin: string | null, nonce: string): Response {
  const style = `<style nonce="${nonce}">html,body{margin:0;height:100%;font:14px system-ui,sans-serif}iframe{border:0;width:100%;height:100%;display:block}p{margin:16px}</style>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Preview</title>${style}</head><body>${body}</body></html>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": previewFrameCsp(origin, nonce), ...HEADERS },
  });
}

/** The origin of an http(s) URL, or null. */
function originOf(url: string): string | null {
  try {
    const u = new URL(url.replace(/\{[^}]*\}/g, "x"));
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
  } catch {
    return null;
  }
}

/** Where the token lets this preview go: the origin of its entry's model's preview URL, or why not. */
function allowedOrigin(s: Services, project: string, token: string): { origin: string } | { refusal: string } {
  const gone = { refusal: "This preview has expired or is not for this project. Close the preview and open it again." };
  if (!/^[0-9a-f-]{36}$/i.test(project) || !s.projects.exists(project)) return gone;
  const h = s.projects.get(project);
  const grant = checkPreviewToken(s, h, token);
  const entryId = grant?.entryIds?.[0];
  if (!grant || !entryId) return gone;
  let modelId: string;
  try {
    modelId = getRow(h, entryId).modelId;
  } catch {
    return gone;
  }
  const template = allModels(h).byId.get(modelId)?.previewUrl;
  const origin = template ? originOf(template) : null;
  return origin ? { origin } : { refusal: "This model has no preview URL. Set one on the model's Details." };
}

/** GET /admin/preview-frame: the framing page, or a sentence saying why there is nothing to show. */
export function previewFrameRoute(s: Services) {
  return new Elysia().get("/admin/preview-frame", ({ query }) => {
    const nonce = crypto.getRandomValues(new Uint8Array(18)).toBase64();
    const project = typeof query.project === "string" ? query.project : "";
    const token = typeof query.token === "string" ? query.token : "";
    const url = typeof query.url === "string" ? query.url : "";
    const allowed = allowedOrigin(s, project, token);
    if ("refusal" in allowed) return answer(404, `<p>${esc(allowed.refusal)}</p>`, null, nonce);
    if (originOf(url) !== allowed.origin) return answer(400, "<p>This address is not on the model's preview site.</p>", null, nonce);
    return answer(200, `<iframe src="${esc(url)}" title="Preview of the entry"></iframe>`, allowed.origin, nonce);
  });
}
