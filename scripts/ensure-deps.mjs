// Runs before `npm start` and `npm test` (prestart, pretest): installs the dependencies, Bun
// among them, when they are missing, so a fresh clone needs only Node and npm. Plain Node on
// purpose: Bun is not there yet when this runs.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bun = join(root, "node_modules", ".bin", process.platform === "win32" ? "bun.exe" : "bun");

if (!existsSync(bun)) {
  console.error("capa: installing dependencies (first run) ...");
  // Under npm, npm_execpath is the npm that runs this script; reuse it rather than whatever npm is on PATH.
  const npmCli = process.env.npm_execpath;
  const [cmd, args] = npmCli?.endsWith(".js") ? [process.execPath, [npmCli]] : [process.platform === "win32" ? "npm.cmd" : "npm", []];
  // npm ci installs exactly the lock file and never rewrites it, so a first start leaves the
  // checkout as it was (git status clean).
  const r = spawnSync(cmd, [...args, "ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit", shell: process.platform === "win32" });
  if (r.status !== 0 || !existsSync(bun)) {
    console.error("capa: npm ci failed; see the output above");
    process.exit(r.status || 1);
  }
}
