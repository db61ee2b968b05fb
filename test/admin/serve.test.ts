// Serving the admin app: the page for every client route, immutable precompressed assets with
// the negotiated Content-Encoding, the strict CSP, the redirect of browsers from /, and the
// size budget of the first screen. Through the real app (the in-process harness).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type Harness } from "../harness.ts";
import { buildAdmin, ADMIN_DIST, type AdminManifest } from "../../scripts/build-admin.ts";
import { adminCsp, chooseEncoding } from "../../src/http/admin.ts";

const ASSET_CSP = adminCsp();

let h: Harness;
let manifest: AdminManifest;

beforeAll(async () => {
  manifest = await buildAdmin({ quiet: true });
  h = startApp();
});
afterAll(() => h.close());

describe("the page", () => {
  test("GET /admin/ and every client route under it answer the page with the CSP and a fresh style nonce, never stored", async () => {
    const html = readFileSync(join(ADMIN_DIST, "index.html"), "utf8");
    const nonces = new Set<string>();
    for (const path of ["/admin/", "/admin/sign-in", "/admin/content/post/0194d9a0-0000-7000-8000-000000000000", "/admin/settings"]) {
      const res = await h.req("GET", path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-store");
      const csp = res.headers.get("content-security-policy")!;
      const nonce = /'nonce-([A-Za-z0-9+/=]{24})'/.exec(csp)![1]!;
      expect(csp).toBe(adminCsp(nonce));
      nonces.add(nonce);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(await res.text()).toBe(html.replace("__CSP_NONCE__", nonce));
    }
    expect(nonces.size).toBe(4);
  });

  test("the page names the fingerprinted entry script and style sheet and holds no inline script or style", () => {
    const html = readFileSync(join(ADMIN_DIST, "index.html"), "utf8");
    expect(html).toContain(`<script type="module" src="/admin/assets/${manifest.entry.script}"></script>`);
    for (const s of manifest.entry.styles) expect(html).toContain(`<link rel="stylesheet" href="/admin/assets/${s}">`);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|style="/);
    expect(manifest.entry.script).toMatch(/^main-[a-z0-9]+\.js$/);
  });

  test("with CAPA_MEDIA_BASE_URL on another origin, the page's CSP names it for images, and for nothing else", async () => {
    const cdn = startApp({ mediaBaseUrl: "https://cdn.example.com/files" });
    try {
      const csp = (await cdn.req("GET", "/admin/")).headers.get("content-security-policy")!;
      const nonce = /'nonce-([A-Za-z0-9+/=]{24})'/.exec(csp)![1]!;
      expect(csp).toBe(adminCsp(nonce, "https://cdn.example.com"));
      expect(csp).toContain("img-src 'self' data: blob: https://cdn.example.com; connect-src 'self'");
    } finally {
      cdn.close();
    }
  });

  test("the CSP allows no inline script, nothing from another host, and inline style only with the nonce", () => {
    expect(adminCsp()).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(adminCsp("abc")).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'nonce-abc'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
  });

  test("GET /admin (no slash) answers the page too", async () => {
    const res = await h.req("GET", "/admin");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("style-src 'self' 'nonce-");
  });
});

describe("GET /", () => {
  test("a browser (Accept: text/html) is sent to /admin/ with 302", async () => {
    const res = await h.req("GET", "/", { headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/");
  });

  test("a client that does not accept HTML still gets the JSON 404 it got before", async () => {
    for (const accept of ["application/json", "*/*"]) {
      const res = await h.json("GET", "/", { headers: { accept } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "No route matches this path.", code: "route_not_found" });
    }
  });
});

describe("assets", () => {
  const script = () => manifest.entry.script;
  const raw = () => readFileSync(join(ADMIN_DIST, "assets", script()));

  test("brotli when accepted, immutable for a year, with Vary and the CSP", async () => {
    const res = await h.req("GET", `/admin/assets/${script()}`, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    expect(res.headers.get("content-security-policy")).toBe(ASSET_CSP);
    expect(Buffer.from(brotliDecompressSync(Buffer.from(await res.arrayBuffer())))).toEqual(raw());
  });

  test("gzip when brotli is not accepted, identity when nothing is", async () => {
    const gz = await h.req("GET", `/admin/assets/${script()}`, { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(Buffer.from(gunzipSync(Buffer.from(await gz.arrayBuffer())))).toEqual(raw());
    const plain = await h.req("GET", `/admin/assets/${script()}`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer())).toEqual(raw());
  });

  test("the style sheet is served as CSS", async () => {
    const res = await h.req("GET", `/admin/assets/${manifest.entry.styles[0]}`, { headers: { "accept-encoding": "br" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });

  test("an unknown asset is a 404, not the page", async () => {
    const res = await h.json("GET", "/admin/assets/main-nothere.js");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "No route matches this path.", code: "route_not_found" });
  });

  test("Accept-Encoding negotiation honours q-values", () => {
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("gzip;q=0.5, br;q=0.1")).toBe("br");
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("identity")).toBeNull();
    expect(chooseEncoding(null)).toBeNull();
    expect(chooseEncoding("gzip;q=0, br;q=0")).toBeNull();
  });
});

describe("the build", () => {
  test("a second build with unchanged sources is skipped and answers the same manifest", async () => {
    const started = performance.now();
    const again = await buildAdmin({ quiet: true });
    expect(again).toEqual(manifest);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test("the first screen (sign-in and the entries list) stays under 250 KB compressed; the editor is split off", () => {
    const initial = manifest.assets.filter((a) => manifest.initial.includes(a.path));
    const brotli = initial.reduce((n, a) => n + a.brotli, 0);
    const gzip = initial.reduce((n, a) => n + a.gzip, 0);
    expect(gzip).toBeLessThan(250 * 1024);
    expect(brotli).toBeLessThan(gzip);
    expect(manifest.initial.some((p) => p.startsWith("entry-screen-"))).toBe(false);
    expect(manifest.initial.some((p) => p.startsWith("code-editor-"))).toBe(false);
    expect(manifest.assets.some((a) => a.path.startsWith("code-editor-"))).toBe(true);
  });
});
