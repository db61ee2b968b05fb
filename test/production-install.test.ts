// A production install (`npm ci --omit=dev`, docs/configuration.md "Production install") stays
// small and still starts (issue 25: at most 200 MiB of node_modules; `bun scripts/bench.ts
// install` measures it). Read from the lock file and the sources, so it runs in milliseconds:
// the packages that once made it 270 MiB (TypeScript, Bun's and Node's types, the admin app's
// libraries) are not in the production tree, the server imports only runtime dependencies, and
// without React the admin build step lets the server start while /admin/ says how to build.
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Glob } from "bun";
import { NOT_BUILT } from "../scripts/build-admin.ts";
import { ADMIN_NOT_BUILT, adminRoutes } from "../src/http/admin.ts";
import { ROOT } from "./spawn.ts";

interface LockEntry {
  name?: string;
  version?: string;
  dev?: boolean;
}
const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> };

/** Build-time and type-only packages, never needed to run the server. */
const NOT_IN_PRODUCTION = [
  /^typescript$/,
  /^@typescript\//,
  /^bun-types$/,
  /^@types\/bun$/,
  /^@types\/node$/,
  /^@types\/react(-dom)?$/,
  /^react$/,
  /^react-dom$/,
  /^@tanstack\//,
  /^@codemirror\//,
  /^@lezer\//,
  /^prosemirror-/,
];

describe("the production tree of package-lock.json (what npm ci --omit=dev installs)", () => {
  // Entries without "dev": true; "devOptional" ones stay under --omit=dev, which is how an optional
  // peer dependency of a runtime package (elysia on typescript) once kept a dev package there.
  const production = Object.entries(lock.packages)
    .filter(([path, e]) => path !== "" && !e.dev)
    .map(([path, e]) => ({ folder: path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length), name: e.name }));

  test("holds no compiler, no types and none of the admin app's libraries, by folder or by real name", () => {
    const found = production.filter((p) => NOT_IN_PRODUCTION.some((re) => re.test(p.folder) || (p.name !== undefined && re.test(p.name))));
    expect(found).toEqual([]);
  });

  test("still holds every runtime dependency", () => {
    const folders = new Set(production.map((p) => p.folder));
    expect(Object.keys(pkg.dependencies).filter((d) => !folders.has(d))).toEqual([]);
  });
});

/** The packages a file imports at run time (type-only imports aside), by package name. */
function runtimePackages(text: string): string[] {
  const out: string[] = [];
  const add = (spec: string) => {
    if (spec.startsWith(".") || spec.startsWith("node:") || spec.startsWith("bun:") || spec === "bun") return;
    const parts = spec.split("/");
    out.push(spec.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!);
  };
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)([^;]*?)\s*from\s*"([^"]+)";/gms)) {
    const named = /^\{([^}]*)\}$/s.exec(m[1]!.trim());
    if (named && named[1]!.split(",").every((x) => x.trim() === "" || x.trim().startsWith("type "))) continue;
    add(m[2]!);
  }
  for (const m of text.matchAll(/^import\s+"([^"]+)";/gm)) add(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)) add(m[1]!);
  return out;
}

test("the server and the build scripts npm start runs import only packages of `dependencies`", () => {
  const files = [...new Glob("src/**/*.ts").scanSync(ROOT)].filter((f) => !f.endsWith(".test.ts"));
  files.push("scripts/build-admin.ts", "scripts/build-server.ts", "scripts/ensure-deps.mjs");
  const outside: string[] = [];
  for (const f of files) {
    for (const p of runtimePackages(readFileSync(join(ROOT, f), "utf8"))) if (!(p in pkg.dependencies)) outside.push(`${f}: ${p}`);
  }
  expect(files.length).toBeGreaterThan(300);
  expect(outside).toEqual([]);
});

describe("without the admin app's libraries (a production install that skipped the build)", () => {
  // A checkout with the build script and the app's sources, and a node_modules without React.
  const dir = mkdtempSync(join(tmpdir(), "capa-no-react-"));
  mkdirSync(join(dir, "scripts"));
  mkdirSync(join(dir, "admin", "src"), { recursive: true });
  mkdirSync(join(dir, "node_modules"));
  copyFileSync(join(ROOT, "scripts", "build-admin.ts"), join(dir, "scripts", "build-admin.ts"));
  copyFileSync(join(ROOT, "package-lock.json"), join(dir, "package-lock.json"));
  writeFileSync(join(dir, "admin", "index.html"), "<!doctype html><!--styles--><!--script-->");
  writeFileSync(join(dir, "admin", "src", "main.tsx"), 'import { createRoot } from "react-dom/client";\ncreateRoot(document.body);\n');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function buildAdmin(...args: string[]) {
    const proc = Bun.spawn([process.execPath, join(dir, "scripts", "build-admin.ts"), ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  }

  test("with no build, npm start's step prints one line and lets the server start; a plain build:admin fails", async () => {
    expect(await buildAdmin("--optional")).toEqual({ code: 0, stdout: "", stderr: `${NOT_BUILT}\n` });
    expect(NOT_BUILT).toBe("capa: admin app not built: run `npm ci && npm run build` (its libraries are dev dependencies, not installed here)");
    expect(await buildAdmin()).toEqual({ code: 1, stdout: "", stderr: `${NOT_BUILT}\n` });
  });

  test("a build of the same sources is kept without a word (build, then npm prune --omit=dev)", async () => {
    const hash = Bun.spawnSync([process.execPath, "-e", `console.log((await import(${JSON.stringify(join(dir, "scripts", "build-admin.ts"))})).sourceHash())`]);
    const manifest = { sourceHash: hash.stdout.toString().trim(), entry: { script: "main-x.js", styles: [] }, initial: [], assets: [] };
    mkdirSync(join(dir, "admin", "dist"), { recursive: true });
    writeFileSync(join(dir, "admin", "dist", "manifest.json"), JSON.stringify(manifest));
    expect(manifest.sourceHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await buildAdmin("--optional")).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await buildAdmin()).toEqual({ code: 0, stdout: "", stderr: "" });
    // Sources changed since that build: the older build is served, and the line says so.
    writeFileSync(join(dir, "admin", "src", "main.tsx"), "export {};\n");
    expect(await buildAdmin("--optional")).toEqual({ code: 0, stdout: "", stderr: `${NOT_BUILT}; serving the older build in admin/dist\n` });
  });

  test("GET /admin/ before a build answers 503 with a plain page saying how to build", async () => {
    const empty = mkdtempSync(join(tmpdir(), "capa-no-admin-"));
    try {
      const res = await adminRoutes({ dir: empty }).handle(new Request("http://127.0.0.1/admin/"));
      expect(res.status).toBe(503);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.text()).toBe(
        'The admin app is not built: run `npm ci && npm run build` (the app\'s libraries are dev dependencies; docs/configuration.md, "Production install").\n',
      );
      expect(ADMIN_NOT_BUILT).toStartWith("The admin app is not built: run `npm ci && npm run build`");
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
