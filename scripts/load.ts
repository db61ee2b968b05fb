// `bun scripts/load.ts [seconds]`: 20 projects x 3 keys reading at the concurrency limits on
// loopback for a bounded time (default 60 s). Each key runs 3 clients (the per-client limit), so
// keys stay within their own limit of 4 while each project's 9 clients press its limit of 4.
// Reports status counts, the reasons of every 429, and the server's RSS at start and end.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnServer } from "./bench/load.ts";

const seconds = Math.min(600, Number(process.argv[2] ?? 60));
const field = (pid: number, name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const rss = (pid: number) => field(pid, "VmRSS");

const server = await spawnServer(join(import.meta.dir, "bench", "serve-many.ts"), ["20", "2000"]);
const { url, pid, sets } = server.info as { url: string; pid: number; sets: { projectId: string; keys: string[] }[] };
const paths = [
  "/api/entries/post?limit=25",
  "/api/entries/post?limit=25&select=title,price,author(name)",
  `/api/entries/post?limit=25&where=${encodeURIComponent(JSON.stringify({ price: { gte: 500 } }))}&sort=-price`,
  "/api/entries/post?limit=50&sort=title",
  "/api/me",
];
// Warm up so the start RSS is that of a serving process, not a cold one.
for (const set of sets) await fetch(url + paths[0], { headers: { "x-api-key": set.keys[0]! } }).then((r) => r.arrayBuffer());
const startRss = rss(pid);
const statuses: Record<number, number> = {};
const reasons: Record<string, number> = {};
const other: string[] = [];
const end = performance.now() + seconds * 1000;
let n = 0;
async function client(key: string, i: number) {
  let k = i;
  while (performance.now() < end) {
    const path = paths[k++ % paths.length]!;
    const r = await fetch(url + path, { headers: { "x-api-key": key, "accept-encoding": "identity" } });
    const text = await r.text();
    n++;
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    if (r.status === 429) {
      const msg = JSON.parse(text).error.message as string;
      reasons[msg] = (reasons[msg] ?? 0) + 1;
    } else if (r.status !== 200 && other.length < 10) other.push(`${r.status} ${path} ${text.slice(0, 200)}`);
  }
}
const samples: string[] = [];
const sampler = setInterval(() => samples.push(rss(pid).toFixed(0)), Math.max(1000, (seconds * 1000) / 12));
const t0 = performance.now();
await Promise.all(sets.flatMap((set) => set.keys.flatMap((key) => [0, 1, 2].map((i) => client(key, i)))));
const took = (performance.now() - t0) / 1000;
const endRss = rss(pid);
const endAnon = field(pid, "RssAnon");
const endFile = field(pid, "RssFile");
clearInterval(sampler);
server.proc.kill();
const fives = Object.entries(statuses)
  .filter(([s]) => Number(s) >= 500)
  .reduce((a, [, c]) => a + c, 0);
// The documented limits: in-flight counts (interface.md) and the per-key rate (decisions.md 8).
const documented =
  /^(Too many reads at once: at most (3 for one client of a key|4 for one key|4 for one project's keys together)\.|This key sent more than \d+ requests a second \(burst \d+\)\.)$/;
const undocumented = Object.keys(reasons).filter((m) => !documented.test(m));
console.log(`| figure | value |\n| --- | --- |`);
console.log(`| load: requests in ${seconds} s (20 projects x 3 keys x 3 clients) | ${n} (${(n / took).toFixed(0)} req/s) |`);
console.log(`| load: statuses | ${JSON.stringify(statuses)} |`);
console.log(`| load: 429 reasons | ${JSON.stringify(reasons)} |`);
console.log(`| load: 5xx | ${fives} |`);
console.log(`| load: RSS start / end (MiB) | ${startRss.toFixed(1)} / ${endRss.toFixed(1)} |`);
console.log(`| load: RSS samples during the run (MiB) | ${samples.join(", ")} |`);
console.log(`| load: RSS at end, anonymous / file-backed (mmap'd project files) (MiB) | ${endAnon.toFixed(1)} / ${endFile.toFixed(1)} |`);
if (other.length) console.log(other.join("\n"));
if (fives > 0 || undocumented.length) {
  console.error(`load: FAILED (${fives} 5xx; undocumented 429 reasons: ${undocumented.join("; ")})`);
  process.exit(1);
}
