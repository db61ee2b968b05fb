// A server with many seeded projects, for the load script: `bun serve-many.ts <projects> <posts>`.
// Prints READY with the URL, the pid, and three keys (two production, one development) per project.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { mintKey } from "../../src/domain/keys/mint.ts";
import { seedBig } from "./seed.ts";

const projects = Number(process.argv[2] ?? 20);
const posts = Number(process.argv[3] ?? 2000);
const dir = mkdtempSync(join(tmpdir(), "capa-load-"));
// Documented defaults, except the logs (quiet) and the data dir.
const capa = createApp({ ...loadConfig({ ...process.env, CAPA_DATA_DIR: dir, CAPA_DEMO: "0" }), logLevel: "warn" });
const sets: { projectId: string; keys: string[] }[] = [];
for (let i = 0; i < projects; i++) {
  const seed = seedBig(capa, posts, 50);
  const extra = mintKey(capa.services, seed.projectId, { kind: "cli" }, { preset: "read_only" }).apiKey;
  sets.push({ projectId: seed.projectId, keys: [seed.prodKey, extra, seed.devKey] });
}
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: capa.app.fetch, maxRequestBodySize: 1024 * 1024 + 1024 });
console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${server.port}`, pid: process.pid, sets })}`);
