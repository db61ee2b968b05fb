// `bun scripts/many-projects.ts [projects] [posts]`: a server with many small projects (default
// 1,000 of 20 posts), each read once with a production and a development key (a list and an item),
// then the server's RSS (issue 16's goal: <= 250 MB). The server seeds the projects itself
// (scripts/bench/serve-many.ts), so its heap has seen every file opened once already.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnServer } from "./bench/load.ts";

const projects = Number(process.argv[2] ?? 1000);
const posts = Number(process.argv[3] ?? 20);
const field = (pid: number, name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

const t0 = performance.now();
const server = await spawnServer(join(import.meta.dir, "bench", "serve-many.ts"), [String(projects), String(posts)]);
const { url, pid, sets } = server.info as { url: string; pid: number; sets: { projectId: string; keys: string[] }[] };
const seeded = field(pid, "VmRSS");
let statuses: Record<number, number> = {};
try {
  for (const set of sets) {
    for (const key of [set.keys[0]!, set.keys[2]!]) {
      const list = await fetch(`${url}/api/entries/post?limit=25`, { headers: { "x-api-key": key } });
      const body = (await list.json()) as { data: { id: string }[] };
      statuses[list.status] = (statuses[list.status] ?? 0) + 1;
      const item = await fetch(`${url}/api/entries/post/${body.data[0]!.id}`, { headers: { "x-api-key": key } });
      await item.arrayBuffer();
      statuses[item.status] = (statuses[item.status] ?? 0) + 1;
    }
  }
  const after = field(pid, "VmRSS");
  console.log("| figure | value |\n| --- | --- |");
  console.log(`| many: projects x posts | ${projects} x ${posts} (seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s) |`);
  console.log(`| many: statuses of ${projects * 4} reads | ${JSON.stringify(statuses)} |`);
  console.log(`| many: RSS after seeding / after every project was read (MiB) | ${seeded.toFixed(1)} / ${after.toFixed(1)} |`);
  console.log(`| many: RSS anonymous / file-backed after (MiB) | ${field(pid, "RssAnon").toFixed(1)} / ${field(pid, "RssFile").toFixed(1)} |`);
} finally {
  statuses = {};
  server.proc.kill();
  await server.proc.exited;
}
