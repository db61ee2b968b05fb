// The admin app (decisions.md 11): GET /admin/ serves the page for every client route under
// /admin/ (deep links work), /admin/assets/* the fingerprinted files built by
// scripts/build-admin.ts (immutable, precompressed, Content-Encoding negotiated), everything
// under a strict Content-Security-Policy; GET / sends browsers to /admin/.
import { Elysia } from "elysia";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../errors.ts";
import { ROOT } from "../infra/paths.ts";
import type { Services } from "../services.ts";
import { previewFrameRoute } from "./admin-preview.ts";

/** Where the build puts the app. */
export const ADMIN_DIST = join(ROOT, "admin", "dist");

/** The answer of /admin/ before a build exists. */
export const ADMIN_NOT_BUILT =
  'The admin app is not built: run `npm ci && npm run build` (the app\'s libraries are dev dependencies; docs/configuration.md, "Production install").';

/**
 * No inline script, nothing from another host, no framing (decisions.md 11). Style sheets come
 * from our origin; the one exception is `<style>` elements that carry the page's per-response
 * nonce: CodeMirror's themes are such elements (it takes the nonce from the page's
 * `csp-nonce` meta tag). No script can run inline, so injected markup cannot read the nonce.
 * Frames: only this origin's, which is the preview pane's page (admin-preview.ts); that page's
 * own CSP names the one preview site it frames.
 */
export function adminCsp(nonce?: string, mediaOrigin: string | null = null): string {
  const style = nonce ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self'";
  const img = `img-src 'self' data: blob:${mediaOrigin ? ` ${mediaOrigin}` : ""}`;
  return `default-src 'self'; script-src 'self'; ${style}; ${img}; connect-src 'self'; font-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
}

/**
 * The origin of public file URLs when it is not the server's own (CAPA_MEDIA_BASE_URL on a CDN):
 * the app shows thumbnails and the rich text editor's library images from there, so the page's
 * CSP names it for images, and for nothing else.
 */
export function mediaImageOrigin(config: { mediaBaseUrl: string; publicUrl: string }): string | null {
  const media = new URL(config.mediaBaseUrl).origin;
  return media === new URL(config.publicUrl).origin ? null : media;
}

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
};

type Bytes = Uint8Array<ArrayBuffer>;

interface Asset {
  type: string;
  raw: Bytes;
  gzip: Bytes;
  brotli: Bytes;
}

interface Loaded {
  html: string;
  assets: Map<string, Asset>;
}

/** A file's bytes, in the array type a Response body takes. */
function bytes(path: string): Bytes {
  return new Uint8Array(readFileSync(path));
}

/** Reads the built app into memory once; null when it has not been built. */
function load(dir: string): Loaded | null {
  const manifestPath = join(dir, "manifest.json");
  if (!existsSync(manifestPath)) return null;
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { assets: { path: string; type: string }[] };
  const assets = new Map<string, Asset>();
  for (const a of manifest.assets) {
    const base = join(dir, "assets", a.path);
    assets.set(a.path, { type: a.type, raw: bytes(base), gzip: bytes(`${base}.gz`), brotli: bytes(`${base}.br`) });
  }
  return { html: readFileSync(join(dir, "index.html"), "utf8"), assets };
}

/** The best encoding the client accepts among brotli, gzip and none (q=0 refuses one). */
export function chooseEncoding(accept: string | null): "br" | "gzip" | null {
  const q = new Map<string, number>();
  for (const part of (accept ?? "").toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    q.set(name, qp ? Number(qp.slice(2)) || 0 : 1);
  }
  const weight = (n: string) => q.get(n) ?? (q.get("*") !== undefined && n !== "identity" ? q.get("*")! : 0);
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return null;
}

function page(app: Loaded | null, mediaOrigin: string | null): Response {
  if (!app) {
    // A production install (npm ci --omit=dev) has no React to build with, and a server started
    // without `npm start` has not built: either way, say how to fix it.
    const text = `${ADMIN_NOT_BUILT}\n`;
    return new Response(text, {
      status: 503,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "content-security-policy": adminCsp(), ...SECURITY_HEADERS },
    });
  }
  // The page names the fingerprinted files of the current build and a fresh nonce, so it is never stored.
  const nonce = crypto.getRandomValues(new Uint8Array(18)).toBase64();
  return new Response(app.html.replace("__CSP_NONCE__", nonce), {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": adminCsp(nonce, mediaOrigin),
      ...SECURITY_HEADERS,
    },
  });
}

function asset(app: Loaded | null, name: string, request: Request): Response {
  const a = app?.assets.get(name);
  if (!a) throw new AppError("route_not_found");
  const enc = chooseEncoding(request.headers.get("accept-encoding"));
  const body = enc === "br" ? a.brotli : enc === "gzip" ? a.gzip : a.raw;
  const headers: Record<string, string> = {
    "content-type": a.type,
    "cache-control": "public, max-age=31536000, immutable",
    vary: "Accept-Encoding",
    "content-security-policy": adminCsp(),
    ...SECURITY_HEADERS,
  };
  if (enc) headers["content-encoding"] = enc;
  return new Response(body, { headers });
}

/**
 * The admin app's routes; `dir` is the built app (admin/dist unless a test says otherwise), `s`
 * the services the preview pane's frame page reads its token and model from.
 */
export function adminRoutes(opts: { dir?: string; s?: Services } = {}) {
  const dir = opts.dir ?? ADMIN_DIST;
  const mediaOrigin = opts.s ? mediaImageOrigin(opts.s.config) : null;
  let app: Loaded | null | undefined;
  // Loaded on first use, so a server started before the build still finds it once built.
  const current = () => {
    if (!app) app = load(dir);
    return app;
  };
  return (
    new Elysia()
      .get("/", ({ request }) => {
        const accept = request.headers.get("accept") ?? "";
        if (!/\btext\/html\b/i.test(accept)) throw new AppError("route_not_found");
        return new Response(null, { status: 302, headers: { location: "/admin/", "cache-control": "no-store" } });
      })
      // Elysia matches /admin and /admin/ alike: both are the app's home.
      .get("/admin", () => page(current(), mediaOrigin))
      .get("/admin/assets/*", ({ params, request }) => asset(current(), params["*"], request))
      .use(opts.s ? previewFrameRoute(opts.s) : new Elysia())
      .get("/admin/*", () => page(current(), mediaOrigin))
  );
}
