// `bench install`: what a production install weighs (issue 25: at most 200 MiB of node_modules).
// `npm ci --omit=dev` runs in a temporary folder holding only package.json and package-lock.json,
// which is all npm ci reads, so this is a fresh clone's install of the checkout as it is now
// (uncommitted changes to those two files included), install scripts and all (Bun's postinstall
// puts its binary in place). Sizes are `du -sk`, what `du -sh node_modules` shows.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

/** Disk usage of a path in KiB, as du counts it. */
function duKiB(path: string): number {
  const p = Bun.spawnSync(["du", "-sk", path]);
  if (p.exitCode !== 0) throw new Error(`du -sk ${path} failed: ${p.stderr.toString().trim()}`);
  return Number(p.stdout.toString().split("\t")[0]);
}

/** Every installed package folder under a node_modules folder (scoped ones and nested ones too). */
function packagesUnder(dir: string, prefix = ""): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith(".")) continue;
    const path = join(dir, entry);
    if (!statSync(path).isDirectory()) continue;
    if (entry.startsWith("@")) {
      for (const sub of readdirSync(path)) out.push({ name: `${prefix}${entry}/${sub}`, path: join(path, sub) });
    } else out.push({ name: `${prefix}${entry}`, path });
  }
  return out;
}

const mib = (kib: number) => (kib / 1024).toFixed(1);

export async function benchInstall(top = 15): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "capa-bench-install-"));
  try {
    for (const f of ["package.json", "package-lock.json"]) copyFileSync(join(ROOT, f), join(dir, f));
    const started = performance.now();
    const npm = Bun.spawnSync(["npm", "ci", "--omit=dev", "--no-audit", "--no-fund"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    if (npm.exitCode !== 0) throw new Error(`npm ci --omit=dev failed:\n${npm.stderr.toString()}`);
    const seconds = (performance.now() - started) / 1000;
    const modules = join(dir, "node_modules");
    const total = duKiB(modules);
    const packages = packagesUnder(modules).map((p) => ({ name: p.name, kib: duKiB(p.path) }));
    packages.sort((a, b) => b.kib - a.kib);
    const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
    return [
      line(["figure", "value"]),
      line(["---", "---"]),
      line(["node_modules after `npm ci --omit=dev` (MiB, target <= 200)", mib(total)]),
      line(["top-level packages", packages.length]),
      line(["install time (s; npm's cache as it is)", seconds.toFixed(1)]),
      "",
      line(["package", "MiB"]),
      line(["---", "---"]),
      ...packages.slice(0, top).map((p) => line([`\`${p.name}\``, mib(p.kib)])),
    ].join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(await benchInstall());
