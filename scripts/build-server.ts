// Builds the server that `npm start` runs: src/main.ts and the read pool's worker bundled with
// Bun's bundler into dist/server/. One file instead of ~600 modules starts about twice as fast
// and idles about 9 MB smaller (docs/performance.md, "startup"); the tests run the sources.
// The output sits two folders below the root, as src/infra/paths.ts expects. sharp stays
// outside (a native addon); the other libraries loaded on first use (GraphQL, file-type,
// music-metadata, busboy) become chunks loaded on first use, as they are from the sources.
// A build is skipped when a hash of the sources, the lock file and this script is unchanged.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { BunPlugin } from "bun";

const ROOT = join(import.meta.dir, "..");
export const SERVER_DIST = join(ROOT, "dist", "server");

/** Every file under a folder, sorted, relative to the root. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(relative(ROOT, p));
  }
  return out;
}

/**
 * graphql-js ships each module twice, ESM (.mjs, which the bundler picks for "graphql") and
 * CommonJS (.js). Our deep imports name the .js files, which the runtime resolves like the root
 * (one copy), but the bundler would add a second copy of every class beside the ESM one, and
 * graphql-js refuses types from "another module or realm". Deep imports go to the .mjs here.
 */
const graphqlOneCopy: BunPlugin = {
  name: "graphql-one-copy",
  setup(build) {
    build.onResolve({ filter: /^graphql\/.+\.js$/ }, (args) => ({ path: Bun.resolveSync(args.path.replace(/\.js$/, ".mjs"), ROOT) }));
  },
};

/** A hash of everything that decides the build's output. */
function sourceHash(): string {
  const h = createHash("sha256");
  for (const f of [...filesUnder(join(ROOT, "src")), "package-lock.json", relative(ROOT, import.meta.path)]) {
    h.update(f);
    h.update("\0");
    h.update(readFileSync(join(ROOT, f)));
    h.update("\0");
  }
  return h.digest("hex");
}

/**
 * Builds the server into `outdir` (default dist/server) unless that build is of the same
 * sources; answers the entry file. `outdir` must be two folders below the root.
 */
export async function buildServer(opts: { outdir?: string; force?: boolean; quiet?: boolean } = {}): Promise<string> {
  const outdir = opts.outdir ?? SERVER_DIST;
  const entry = join(outdir, "main.js");
  const stamp = join(outdir, "build.json");
  const hash = sourceHash();
  if (!opts.force && existsSync(entry) && existsSync(stamp) && JSON.parse(readFileSync(stamp, "utf8")).sourceHash === hash) return entry;
  const started = performance.now();
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await Bun.build({
    entrypoints: [join(ROOT, "src", "main.ts"), join(ROOT, "src", "domain", "reads", "worker.ts")],
    outdir,
    target: "bun",
    format: "esm",
    splitting: true,
    // Whitespace and syntax only: names stay, so stack traces in the log still read.
    minify: { whitespace: true, syntax: true, identifiers: false },
    sourcemap: "none",
    external: ["sharp"],
    naming: { entry: "[name].[ext]", chunk: "[name]-[hash].[ext]" },
    define: { CAPA_BUNDLED: "true" },
    plugins: [graphqlOneCopy],
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error("The server did not build; see the messages above.");
  }
  // The worker's name says what it is (src/infra/paths.ts looks for read-worker.js).
  renameSync(join(outdir, "worker.js"), join(outdir, "read-worker.js"));
  writeFileSync(stamp, `${JSON.stringify({ sourceHash: hash }, null, 2)}\n`);
  if (!opts.quiet) {
    const bytes = result.outputs.reduce((n, o) => n + o.size, 0);
    console.error(`capa: built the server (${(bytes / 1024).toFixed(0)} KB, ${result.outputs.length} files) in ${Math.round(performance.now() - started)} ms`);
  }
  return entry;
}

if (import.meta.main) await buildServer({ force: process.argv.includes("--force") });
