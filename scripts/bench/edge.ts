// `bench edge` (issue 29; decisions.md 14): the real server behind a real Varnish 7 with the
// shipped capa.vcl, on this machine.
// - A cached production read through Varnish against Capa's own cached read of the same URL and
//   key, both under wrk, in alternating rounds (target: Varnish at least 3x).
// - Publish to a fresh read at the edge: 200 publishes of one entry, each timed from the publish
//   request to the first edge answer with the new title (target: p99 under 1 s).
// - A 3,000-entry bulk publish: every PURGE Varnish received while it ran, read from varnishlog
//   (the target's own record): the smallest gap between two calls (target: at least 100 ms) and
//   the entry tags purged (target: all 3,000).
import type { Figure } from "./entries.ts";
import { spawnServer } from "./load.ts";
import { ensureWrk, wrk } from "./socket-wrk.ts";
import { freePort, startVarnish } from "../varnish.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const TOKEN = "bench-edge-token-0123456789";
const DRAFTS = 3000;
const fmt = (n: number, d = 2) => n.toFixed(d);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

interface Info {
  url: string;
  projectId: string;
  prodKey: string;
  postId: string;
  bulkModelId: string;
  email: string;
  password: string;
}

/** A PURGE as varnishlog recorded it: when it started (epoch s), its status and its tags. */
interface PurgeSeen {
  at: number;
  status: number;
  tags: string[];
}

/** Streams varnishlog's PURGE requests of an instance into `seen` until stopped. */
function watchPurges(instance: string): { seen: PurgeSeen[]; stop(): void } {
  const seen: PurgeSeen[] = [];
  const proc = Bun.spawn(
    ["varnishlog", "-u", "-n", instance, "-g", "request", "-q", 'ReqMethod eq "PURGE"', "-i", "Timestamp,RespStatus", "-I", "ReqHeader:^xkey-purge:"],
    { stdout: "pipe", stderr: "inherit" },
  );
  void (async () => {
    let buf = "";
    let cur: Partial<PurgeSeen> = {};
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout) {
      buf += decoder.decode(chunk, { stream: true });
      let nl = buf.indexOf("\n");
      while (nl >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        nl = buf.indexOf("\n");
        const start = /Timestamp\s+Start: (\d+\.\d+)/.exec(line);
        const status = /RespStatus\s+(\d+)/.exec(line);
        const tags = /ReqHeader\s+xkey-purge: (.*)$/.exec(line);
        if (start) cur.at = Number(start[1]);
        if (status) cur.status = Number(status[1]);
        if (tags) cur.tags = tags[1]!.trim().split(/\s+/);
        if (/^\s*$/.test(line) && cur.at !== undefined) {
          seen.push({ at: cur.at, status: cur.status ?? 0, tags: cur.tags ?? [] });
          cur = {};
        }
      }
    }
  })();
  return { seen, stop: () => proc.kill() };
}

export async function benchEdge(): Promise<Figure[]> {
  const { bin } = ensureWrk();
  const port = freePort();
  // varnishlog keeps 255 bytes of a header by default; the bulk figure reads whole xkey-purge headers.
  const varnish = await startVarnish(port, TOKEN, ["vsl_buffer=16k", "vsl_reclen=8k"]);
  const app = await spawnServer(join(import.meta.dir, "serve-edge.ts"), [String(port), varnish.origin, TOKEN, String(DRAFTS)]);
  const info = app.info as Info;
  try {
    const login = await fetch(`${info.url}/v2/user/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: info.email, password: info.password }),
    });
    const access = ((await login.json()) as { accessToken: string }).accessToken;
    const v2 = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${info.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${access}`, "x-svc-project": info.projectId, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
      return r.json() as Promise<any>;
    };
    // The seeded account is the server's operator, who may read /metrics.
    const metric = async (sample: string) => {
      const text = await (await fetch(`${info.url}/metrics`, { headers: { authorization: `Bearer ${access}` } })).text();
      const line = text.split("\n").find((l) => l.startsWith(`${sample} `));
      return line ? Number(line.slice(sample.length + 1)) : Number.NaN;
    };
    // varnishd's manager and its child (the cache process) both count; Capa is one process with its workers.
    const varnishPids = new TextDecoder()
      .decode(Bun.spawnSync(["pgrep", "-f", varnish.instance]).stdout)
      .trim()
      .split("\n")
      .map(Number);
    const servers = { varnish: varnishPids, capa: [app.proc.pid] };
    return [
      ...(await throughput(bin, info, varnish.origin, servers)),
      await freshness(info, varnish.origin, v2),
      await bulk(info, varnish.instance, v2, metric),
    ];
  } finally {
    app.proc.kill();
    await app.proc.exited;
    await varnish.stop();
  }
}

/** CPU time (user + system) of processes so far, in ms, from /proc (clock ticks of 10 ms). */
function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

/** Varnish's hit against Capa's own cached answer: the same list URL, key and gzip. */
async function throughput(bin: string, info: Info, edge: string, servers: { varnish: number[]; capa: number[] }): Promise<Figure[]> {
  const path = "/api/entries/post?limit=25";
  const req = { method: "GET", headers: { "x-api-key": info.prodKey, "accept-encoding": "gzip" }, body: null };
  for (const base of [info.url, edge]) {
    const r = await fetch(base + path, { headers: req.headers });
    if (r.status !== 200) throw new Error(`bench edge: ${base}${path} answered ${r.status}`);
    await r.arrayBuffer();
  }
  if ((await fetch(edge + path, { headers: req.headers })).headers.get("x-cache") !== "HIT") throw new Error("bench edge: the edge does not keep the answer");
  await wrk(bin, edge + path, req, 1);
  await wrk(bin, info.url + path, req, 1);
  const ours: number[] = [];
  const base: number[] = [];
  const ratios: number[] = [];
  const cpu = { varnish: [] as number[], capa: [] as number[] };
  for (let i = 0; i < 3; i++) {
    const v0 = cpuMs(servers.varnish);
    const a = await wrk(bin, edge + path, req, 3);
    cpu.varnish.push(((cpuMs(servers.varnish) - v0) * 1000) / a.requests);
    const c0 = cpuMs(servers.capa);
    const b = await wrk(bin, info.url + path, req, 3);
    cpu.capa.push(((cpuMs(servers.capa) - c0) * 1000) / b.requests);
    if (a.non2xx || b.non2xx) throw new Error(`bench edge: non-2xx answers (${a.non2xx} at the edge, ${b.non2xx} from Capa)`);
    ours.push(a.rps);
    base.push(b.rps);
    ratios.push(a.rps / b.rps);
  }
  return [
    {
      figure:
        "edge: cached production read (25-entry list, gzip) through Varnish vs Capa's own cached read of the same URL, req/s, wrk -c32, medians of 3 alternating 3 s rounds (target >= 3x)",
      value: fmt(median(ours), 0),
      baseline: `${fmt(median(base), 0)} (Capa direct)`,
      ratio: fmt(median(ratios)),
    },
    {
      figure: "edge: CPU time of the server per cached read in those rounds (user + system, from /proc), us: varnishd vs Capa",
      value: fmt(median(cpu.varnish), 1),
      baseline: `${fmt(median(cpu.capa), 1)} (Capa)`,
      ratio: fmt(median(cpu.capa) / median(cpu.varnish)),
    },
  ];
}

/** 200 publishes of one entry, each timed to the first edge answer that shows it. */
async function freshness(info: Info, edge: string, v2: (m: string, p: string, b?: unknown) => Promise<any>): Promise<Figure> {
  const path = `/api/entries/post/${info.postId}?select=title`;
  const read = async () => ((await (await fetch(edge + path, { headers: { "x-api-key": info.prodKey } })).json()) as any).data.title as string;
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const title = `Fresh ${i}`;
    // Kept at the edge before each publish, so each fresh read needs the purge.
    await read();
    await v2("PATCH", `/v2/model-instances/${info.postId}`, { data: { title } });
    const t0 = performance.now();
    await v2("POST", `/v2/model-instances/${info.postId}/publish`);
    while ((await read()) !== title) {
      if (performance.now() - t0 > 10_000) throw new Error(`bench edge: publish ${i} not at the edge within 10 s`);
      await Bun.sleep(2);
    }
    times.push(performance.now() - t0);
  }
  return {
    figure: "edge: publish to a fresh read through Varnish, ms, p99 over 200 publishes of one entry (target < 1000)",
    value: fmt(pct(times, 99), 1),
    baseline: `p50 ${fmt(pct(times, 50), 1)}, max ${fmt(Math.max(...times), 1)}`,
    ratio: "",
  };
}

/** A 3,000-entry bulk publish, its purges as Varnish saw them. */
async function bulk(
  info: Info,
  instance: string,
  v2: (m: string, p: string, b?: unknown) => Promise<any>,
  metric: (name: string) => Promise<number>,
): Promise<Figure> {
  const watch = watchPurges(instance);
  await Bun.sleep(300);
  const okCalls = 'capa_edge_purge_calls_total{vendor="varnish",outcome="ok"}';
  const tagsSent = 'capa_edge_purge_tags_total{vendor="varnish"}';
  const [calls0, tags0] = [await metric(okCalls), await metric(tagsSent)];
  const t0 = performance.now();
  const started = await v2("POST", "/v2/model-instances/bulk-publish", { modelId: info.bulkModelId });
  for (;;) {
    const b = await v2("GET", `/v2/model-instances/bulk/${started.batchId}`);
    if (b.status === "done" || b.status === "failed") break;
    if (performance.now() - t0 > 120_000) throw new Error("bench edge: the bulk batch did not finish within 120 s");
    await Bun.sleep(100);
  }
  const published = performance.now() - t0;
  const entryTags = () => new Set(watch.seen.filter((p) => p.status === 200).flatMap((p) => p.tags.filter((t) => t.startsWith("entry:"))));
  while (entryTags().size < DRAFTS && performance.now() - t0 < published + 30_000) await Bun.sleep(100);
  const settled = performance.now() - t0;
  await Bun.sleep(500);
  watch.stop();
  const calls = watch.seen;
  const gaps = calls.slice(1).map((c, i) => (c.at - calls[i]!.at) * 1000);
  const refused = calls.filter((c) => c.status !== 200).length;
  const capaCalls = (await metric(okCalls)) - calls0;
  const capaTags = (await metric(tagsSent)) - tags0;
  return {
    figure: `edge: ${DRAFTS}-entry bulk publish (batch done in ${fmt(published / 1000, 1)} s, last purge at ${fmt(settled / 1000, 1)} s): PURGE calls Varnish received, the smallest gap between two in ms (target >= 100), and the entry tags they purged (target ${DRAFTS})`,
    value: `${calls.length} calls (${refused} refused), smallest gap ${gaps.length ? fmt(Math.min(...gaps), 1) : "-"}, ${entryTags().size} of ${DRAFTS} entry tags`,
    baseline: `Capa counted ${capaCalls} ok calls, ${capaTags} tags`,
    ratio: "",
  };
}

if (import.meta.main) {
  for (const f of await benchEdge()) console.log(`| ${f.figure} | ${f.value} | ${f.baseline} | ${f.ratio} |`);
}
