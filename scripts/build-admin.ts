// Builds the admin app (admin/src) with Bun's bundler into admin/dist: fingerprinted file names,
// each text asset precompressed (gzip and brotli) beside it, and a manifest the server reads.
// A build is skipped when a hash of the sources, the lock file and this script is unchanged,
// so `npm start` and `npm test` pay for it only after a change.
// React and the app's other libraries are dev dependencies (a production install leaves them
// out, docs/configuration.md "Production install"), so this file imports none of them: a current
// build is recognised from its hash alone, and `--optional` (npm start's) lets the server start
// without a build when they are not installed.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

export const ADMIN_ROOT = join(import.meta.dir, "..", "admin");
export const ADMIN_DIST = join(ADMIN_ROOT, "dist");

/** One built file: its path under /admin/assets/ and its sizes raw and compressed. */
export interface BuiltAsset {
  path: string;
  type: string;
  bytes: number;
  gzip: number;
  brotli: number;
}

/** What the server reads: the hash of the sources built, the entry files, and every asset. */
export interface AdminManifest {
  sourceHash: string;
  entry: { script: string; styles: string[] };
  /** Assets the entry imports statically: what the first screen loads before any lazy screen. */
  initial: string[];
  assets: BuiltAsset[];
}

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  html: "text/html; charset=utf-8",
  svg: "image/svg+xml",
  json: "application/json",
  map: "application/json",
};

/** Every file under a folder, sorted, as paths relative to `base`. */
function filesUnder(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, base));
    else out.push(relative(base, p));
  }
  return out;
}

/** A hash of everything that decides the build's output. */
export function sourceHash(): string {
  const h = createHash("sha256");
  const root = join(ADMIN_ROOT, "..");
  const inputs = [
    ...filesUnder(join(ADMIN_ROOT, "src"), root),
    relative(root, join(ADMIN_ROOT, "index.html")),
    "package-lock.json",
    relative(root, import.meta.path),
  ];
  for (const f of inputs) {
    h.update(f);
    h.update("\0");
    h.update(readFileSync(join(root, f)));
    h.update("\0");
  }
  return h.digest("hex");
}

/** The manifest of the current build, or null when there is none. */
export function readManifest(dist = ADMIN_DIST): AdminManifest | null {
  const p = join(dist, "manifest.json");
  return existsSync(p) ? (JSON.parse(readFileSync(p, "utf8")) as AdminManifest) : null;
}

/** The files a built JavaScript file imports statically (`import ... from "./x.js"` after minifying). */
function staticImports(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]*from\s*)?["']\.\/([^"']+)["']/g)) out.push(m[1]!);
  return out;
}

/** Builds the app unless the sources are unchanged since the last build; returns the manifest. */
export async function buildAdmin(opts: { force?: boolean; quiet?: boolean } = {}): Promise<AdminManifest> {
  const hash = sourceHash();
  const current = readManifest();
  if (!opts.force && current?.sourceHash === hash) return current;
  const started = performance.now();
  const out = join(ADMIN_DIST, "assets");
  rmSync(ADMIN_DIST, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const result = await Bun.build({
    entrypoints: [join(ADMIN_ROOT, "src", "main.tsx")],
    outdir: out,
    target: "browser",
    format: "esm",
    splitting: true,
    minify: true,
    sourcemap: "none",
    naming: { entry: "[name]-[hash].[ext]", chunk: "[name]-[hash].[ext]", asset: "[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error("The admin app did not build; see the messages above.");
  }
  const entryOut = result.outputs.find((o) => o.kind === "entry-point")!;
  const script = relative(out, entryOut.path);
  const styles = result.outputs.filter((o) => o.path.endsWith(".css")).map((o) => relative(out, o.path));
  // The initial set: the entry, its CSS, and the chunks reachable from it by static imports.
  const initial = new Set<string>([script, ...styles]);
  const queue = [script];
  while (queue.length) {
    const f = queue.pop()!;
    for (const dep of staticImports(readFileSync(join(out, f), "utf8"))) {
      if (!initial.has(dep)) {
        initial.add(dep);
        queue.push(dep);
      }
    }
  }
  const assets: BuiltAsset[] = [];
  for (const f of filesUnder(out)) {
    const ext = f.split(".").pop()!;
    const raw = readFileSync(join(out, f));
    const gz = gzipSync(raw, { level: 9 });
    const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
    writeFileSync(join(out, `${f}.gz`), gz);
    writeFileSync(join(out, `${f}.br`), br);
    assets.push({ path: f, type: TYPES[ext] ?? "application/octet-stream", bytes: raw.length, gzip: gz.length, brotli: br.length });
  }
  // The page itself names the fingerprinted files; it is never cached, so it always names the newest.
  const template = readFileSync(join(ADMIN_ROOT, "index.html"), "utf8");
  const html = template
    .replace("<!--styles-->", styles.map((s) => `<link rel="stylesheet" href="/admin/assets/${s}">`).join(""))
    .replace("<!--script-->", `<script type="module" src="/admin/assets/${script}"></script>`);
  writeFileSync(join(ADMIN_DIST, "index.html"), html);
  const manifest: AdminManifest = { sourceHash: hash, entry: { script, styles }, initial: [...initial].sort(), assets };
  writeFileSync(join(ADMIN_DIST, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  if (!opts.quiet) {
    const first = assets.filter((a) => initial.has(a.path)).reduce((n, a) => n + a.brotli, 0);
    console.log(`capa: admin app built in ${Math.round(performance.now() - started)} ms (first screen ${(first / 1024).toFixed(1)} KB brotli)`);
  }
  return manifest;
}

/** Whether the app's libraries are installed (a full `npm ci`, not `npm ci --omit=dev`). */
export function adminDepsInstalled(): boolean {
  try {
    Bun.resolveSync("react", ADMIN_ROOT);
    return true;
  } catch {
    return false;
  }
}

export const NOT_BUILT = "capa: admin app not built: run `npm ci && npm run build` (its libraries are dev dependencies, not installed here)";

if (import.meta.main) {
  const force = process.argv.includes("--force");
  if (adminDepsInstalled()) await buildAdmin({ force });
  else {
    const current = readManifest();
    if (force || current?.sourceHash !== sourceHash()) {
      // With --optional (npm start's) the server starts anyway: it answers /admin/ with the same
      // advice, or serves the older build when there is one.
      const optional = process.argv.includes("--optional");
      console.error(current && optional ? `${NOT_BUILT}; serving the older build in admin/dist` : NOT_BUILT);
      if (!optional) process.exit(1);
    }
  }
}
