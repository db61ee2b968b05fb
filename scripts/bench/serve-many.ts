// A server with many seeded projects, for the load scripts: `bun serve-many.ts <projects> <posts>`.
// Seeds the projects in this process, closes them, then starts the server `npm start` runs (the
// bundle, scripts/build-server.ts) on that data directory with the documented defaults, so the
// RSS the scripts read is that of a real server, not of one that also held the seeding.
// Prints READY with the URL, the server's pid, and three keys (two production, one development)
// per project; stops the server when this process is stopped.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { mintKey } from "../../src/domain/keys/mint.ts";
import { buildServer } from "../build-server.ts";
import { seedBig } from "./seed.ts";

const projects = Number(process.argv[2] ?? 20);
const posts = Number(process.argv[3] ?? 2000);
const dir = mkdtempSync(join(tmpdir(), "capa-load-"));
const capa = createApp({ ...loadConfig({ ...process.env, CAPA_DATA_DIR: dir, CAPA_DEMO: "0" }), logLevel: "warn" });
const sets: { projectId: string; keys: string[] }[] = [];
for (let i = 0; i < projects; i++) {
  const seed = seedBig(capa, posts, 50);
  const extra = mintKey(capa.services, seed.projectId, { kind: "cli" }, { preset: "read_only" }).apiKey;
  sets.push({ projectId: seed.projectId, keys: [seed.prodKey, extra, seed.devKey] });
}
capa.close();

const entry = await buildServer({ quiet: true });
const server = Bun.spawn([process.execPath, entry], {
  env: { ...process.env, CAPA_DATA_DIR: dir, CAPA_DEMO: "0", HOST: "127.0.0.1", PORT: "0", CAPA_LOG_LEVEL: "warn", CAPA_ADMIN_PASSWORD: "load-password-1" },
  stdout: "pipe",
  stderr: "inherit",
});
const stop = () => {
  server.kill("SIGTERM");
  void server.exited.then(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
let out = "";
const reader = server.stdout.getReader();
for (;;) {
  const { value, done } = await reader.read();
  if (done) throw new Error("the server exited before it listened");
  out += new TextDecoder().decode(value);
  const m = /Capa listening on (\S+)/.exec(out);
  if (m) {
    console.log(`READY ${JSON.stringify({ url: m[1], pid: server.pid, sets })}`);
    break;
  }
}
// Keep reading, so the server never blocks on a full pipe.
for (;;) if ((await reader.read()).done) break;
