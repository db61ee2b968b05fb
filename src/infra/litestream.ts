// Litestream, the pieces both the supervisor (replication.ts) and `capa restore` (restore.ts)
// use: where the binary is, where each file's replica lives, and the YAML configuration that
// lists them. The binary comes from the npm package @flydotio/litestream (v0.3.x).
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT } from "./paths.ts";

/** What the configuration needs to know about the replica (a slice of Config). */
export interface ReplicaSettings {
  replicaUrl: string;
  replicaEndpoint: string | null;
  replicaRegion: string | null;
}

/**
 * The Litestream executable. The npm package's `litestream` bin is a Node launcher that runs the
 * real binary with spawnSync; signals sent to the launcher never reach Litestream, so the
 * platform package's binary is run directly. A `litestream` on PATH is the fallback.
 */
export function litestreamBinary(): string | null {
  const packaged = join(ROOT, "node_modules", "@flydotio", `litestream-${process.platform}-${process.arch}`, "litestream");
  if (existsSync(packaged)) return packaged;
  const onPath = Bun.which("litestream");
  // The launcher itself on PATH (node_modules/.bin) is the one to avoid.
  if (onPath && !onPath.includes(join("node_modules", ".bin"))) return onPath;
  return null;
}

/** A file replica's directory for a data file, or null for an S3 replica. */
export function fileReplicaDir(replicaUrl: string, rel: string): string | null {
  if (!replicaUrl.startsWith("file:")) return null;
  return join(fileURLToPath(replicaUrl), rel);
}

/**
 * Litestream's own state for a database: the directory beside it named `.<file>-litestream`,
 * holding the current generation and the shadow WAL.
 */
export function metaDir(dbPath: string): string {
  return join(dirname(dbPath), `.${basename(dbPath)}-litestream`);
}

/** A YAML double-quoted scalar (JSON strings are valid YAML). */
function q(s: string): string {
  return JSON.stringify(s);
}

/** The replica block of one file: `<replica>/<relative path>`. */
function replicaYaml(r: ReplicaSettings, rel: string): string[] {
  const dir = fileReplicaDir(r.replicaUrl, rel);
  if (dir !== null) return ["      - type: file", `        path: ${q(dir)}`];
  const u = new URL(r.replicaUrl);
  const prefix = decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, "");
  const lines = ["      - type: s3", `        bucket: ${q(u.host)}`, `        path: ${q(prefix ? `${prefix}/${rel}` : rel)}`];
  // Services other than AWS (MinIO, R2, ...) need their endpoint and path-style addressing.
  if (r.replicaEndpoint) lines.push(`        endpoint: ${q(r.replicaEndpoint)}`, "        force-path-style: true");
  if (r.replicaRegion) lines.push(`        region: ${q(r.replicaRegion)}`);
  return lines;
}

/**
 * How often Litestream looks at each file (its default is 1 s). A child takes a file on at its
 * first look, one interval after it starts; a shard restarting for a new project waits for that
 * look before it is replaced again (replication-shard.ts, FIRST_LOOK_MS), so a burst of
 * creations goes faster the shorter the interval: 100 projects 16 at a time took 69 s at 100 ms,
 * 76 s at 250 ms, 138 s at 1 s. Each look costs CPU: 60 quiet watched files took 22%, 7% and
 * 3.5% of a core. 250 ms is the middle (docs/backup.md).
 */
export const MONITOR_INTERVAL_MS = 250;

/**
 * The configuration listing `files` (paths relative to `dataDir`). Credentials are not written:
 * Litestream reads LITESTREAM_ACCESS_KEY_ID / LITESTREAM_SECRET_ACCESS_KEY (or the AWS_ names)
 * from the environment it inherits.
 */
export function configYaml(r: ReplicaSettings, dataDir: string, files: string[]): string {
  const lines = [
    "# Written by Capa from CAPA_REPLICA_URL at start and whenever a project is added or removed.",
    "# Edits are overwritten; see docs/backup.md.",
    "dbs:",
  ];
  for (const rel of files)
    lines.push(`  - path: ${q(join(dataDir, rel))}`, `    monitor-interval: ${MONITOR_INTERVAL_MS}ms`, "    replicas:", ...replicaYaml(r, rel));
  return `${lines.join("\n")}\n`;
}

/** Writes a configuration atomically, so a Litestream starting meanwhile never reads half a file. */
export function writeConfig(path: string, yaml: string): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, yaml, { mode: 0o600 });
  renameSync(tmp, path);
}

/** Runs one Litestream command to its end; output is returned, not printed. */
export async function runLitestream(args: string[]): Promise<{ code: number; output: string }> {
  const bin = litestreamBinary();
  if (!bin) return { code: 127, output: "the litestream binary is missing; run npm install" };
  const proc = Bun.spawn([bin, ...args], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, output: (out + err).trim() };
}

/** The message of a Litestream log line (`time=... level=ERROR msg="..." error="..."`), for one-line reports. */
export function lineMessage(line: string): string {
  const msg = /msg="((?:[^"\\]|\\.)*)"|msg=(\S+)/.exec(line);
  const err = /error="((?:[^"\\]|\\.)*)"|error=(\S+)/.exec(line);
  const m = msg?.[1] ?? msg?.[2];
  const e = err?.[1] ?? err?.[2];
  if (!m) return line.trim();
  return e ? `${m}: ${e}` : m;
}
