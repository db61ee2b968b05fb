// `bench socket`: what users see. The real server (the bundle `npm start` runs, its own process, per-key
// limits raised through its configuration) is driven over loopback by wrk, next to a raw
// Bun.serve + bun:sqlite server running the statements Capa ran for the same request on the same
// file, and a bare Bun.serve answering Capa's cached production bytes. Each scenario runs with a
// development key (uncached) and a production key (cached); the targets alternate within each
// round and every ratio is the median of the per-round ratios, since the machine is shared.
import { readFileSync, rmSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, spawnServer } from "./load.ts";
import type { Plan, PlannedScenario } from "./socket-scenarios.ts";
import { ensureWrk, wrk, type WrkResult } from "./socket-wrk.ts";
import { buildServer } from "../build-server.ts";

const ROOT = join(import.meta.dir, "..", "..");
const ROUNDS = Number(process.env.BENCH_SOCKET_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SOCKET_SECONDS ?? 2);
/** Scenario names to run (comma-separated), for a quick comparison of a few reads; the derived ratios need every scenario. */
const ONLY = process.env.BENCH_SOCKET_ONLY ? process.env.BENCH_SOCKET_ONLY.split(",") : null;
const CONNECTIONS = 32;

/** The benchmark server's configuration: per-key and per-project limits far above what wrk sends. */
const SERVER_ENV = {
  CAPA_DEMO: "0",
  CAPA_RATE_LIMIT: "1000000",
  CAPA_RATE_BURST: "1000000",
  CAPA_INFLIGHT_CLIENT: "10000",
  CAPA_INFLIGHT_KEY: "10000",
  CAPA_INFLIGHT_PROJECT: "10000",
};

type Target = "capa" | "raw" | "bare";
interface Row {
  s: PlannedScenario;
  runs: Record<Target, WrkResult[]>;
}

const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : "n/a");

/** Resident set size of a process in MiB (Linux). */
function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** Starts the server `npm start` runs (dist/server/main.js) on the prepared data directory and waits until it answers. */
async function startCapa(dir: string) {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, reusePort: false, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  // Logs stay at the default level (info, one line per request), as in production; stdout is discarded.
  const proc = Bun.spawn([process.execPath, await buildServer({ quiet: true })], {
    cwd: ROOT,
    env: { ...process.env, ...SERVER_ENV, CAPA_DATA_DIR: dir, HOST: "127.0.0.1", PORT: String(port) },
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the server exited with ${proc.exitCode}`);
    if (performance.now() - t0 > 30_000) throw new Error("the server did not answer within 30 s");
    const ok = await fetch(`${url}/api/versions`).then(
      () => true,
      () => false,
    );
    if (ok) return { proc, url };
    await Bun.sleep(10);
  }
}

/** The request of a scenario, sent to Capa with its key, to the baselines without one. */
function request(s: PlannedScenario, withKey: boolean) {
  const headers: Record<string, string> = {};
  if (withKey) headers["x-api-key"] = s.key;
  if (s.body !== null) headers["content-type"] = "application/json";
  return { method: s.method, headers, body: s.body };
}

/** Checks that one answer of each target is a 200, before anything is measured. */
async function expectOk(url: string, s: PlannedScenario, withKey: boolean): Promise<Uint8Array> {
  const r = request(s, withKey);
  const res = await fetch(url, { method: r.method, headers: { ...r.headers, "accept-encoding": "identity" }, body: r.body ?? undefined });
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${new TextDecoder().decode(bytes).slice(0, 300)}`);
  return bytes;
}

/** Runs the benchmark and returns its Markdown. */
export async function benchSocket(): Promise<string> {
  const tool = ensureWrk();
  const dir = mkdtempSync(join(tmpdir(), "capa-bench-socket-"));
  const procs: { kill(): void; exited: Promise<unknown> }[] = [];
  try {
    const prep = await spawnServer(join(import.meta.dir, "socket-prepare.ts"), [dir]);
    await prep.proc.exited;
    const plan = JSON.parse(readFileSync(prep.info.file as string, "utf8")) as Plan;
    if (ONLY) plan.scenarios = plan.scenarios.filter((s) => ONLY.includes(s.name));

    const capa = await startCapa(dir);
    procs.push(capa.proc);
    await Bun.sleep(1000);
    const rssIdle = rssMiB(capa.proc.pid);
    const raw = await spawnServer(join(import.meta.dir, "socket-raw.ts"), [prep.info.file as string]);
    procs.push(raw.proc);

    // Capa's production answers (cached from the first read on) become the bare server's bytes.
    const manifest: Record<string, string> = {};
    for (const s of plan.scenarios) {
      const bytes = await expectOk(`${capa.url}${s.path}`, s, true);
      await expectOk(`${raw.info.url}/${s.name}/${s.env}`, s, false);
      if (s.env === "prod") {
        const file = join(dir, `bare-${s.name}.json`);
        writeFileSync(file, bytes);
        manifest[`/${s.name}/prod`] = file;
      }
    }
    const manifestFile = join(dir, "bare.json");
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const bare = await spawnServer(join(import.meta.dir, "socket-bare.ts"), [manifestFile]);
    procs.push(bare.proc);

    const targets = (s: PlannedScenario): [Target, string, boolean][] => [
      ["capa", `${capa.url}${s.path}`, true],
      ["raw", `${raw.info.url}/${s.name}/${s.env}`, false],
      ...(s.env === "prod" ? ([["bare", `${bare.info.url}/${s.name}/prod`, false]] as [Target, string, boolean][]) : []),
    ];
    // One warm-up second per target (JIT, caches, lazily started read workers), then the rounds.
    for (const s of plan.scenarios) for (const [, url, key] of targets(s)) await wrk(tool.bin, url, request(s, key), 1, CONNECTIONS);
    // Every development read, then every production read: the reads compared with each other
    // run seconds apart within a round, not minutes.
    const byEnv = [...plan.scenarios.filter((s) => s.env === "dev"), ...plan.scenarios.filter((s) => s.env === "prod")];
    const rows: Row[] = byEnv.map((s) => ({ s, runs: { capa: [], raw: [], bare: [] } }));
    // Capa's RSS, sampled every 50 ms while it serves the development (uncached) reads: their peak.
    let rssPeak = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const row of rows) {
        for (const [t, url, key] of targets(row.s)) {
          const sampler = t === "capa" && row.s.env === "dev" ? setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(capa.proc.pid))), 50) : null;
          const r = await wrk(tool.bin, url, request(row.s, key), SECONDS, CONNECTIONS);
          if (sampler) clearInterval(sampler);
          if (r.non2xx || r.socketErrors) throw new Error(`${row.s.name} (${row.s.env}) on ${t}: ${r.non2xx} answers not 2xx, ${r.socketErrors} socket errors`);
          row.runs[t].push(r);
        }
      }
    }
    const rssAfter = rssMiB(capa.proc.pid);
    return report(rows, plan, tool.how, { idle: rssIdle, peak: rssPeak, after: rssAfter });
  } finally {
    // The server writes its batches and closes its files on SIGTERM: the directory goes after.
    for (const p of procs) p.kill();
    await Promise.all(procs.map((p) => p.exited));
    rmSync(dir, { recursive: true, force: true });
  }
}

const rpsOf = (xs: WrkResult[]) => median(xs.map((x) => x.rps));
const p50Of = (xs: WrkResult[]) => median(xs.map((x) => x.p50));
/** The median over rounds of a per-round ratio (the two were measured back to back). */
const ratioOf = (a: WrkResult[], b: WrkResult[], f: (x: WrkResult, y: WrkResult) => number) => median(a.map((x, i) => f(x, b[i]!)));

function table(head: string[], body: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...body.map(line)].join("\n");
}

function report(rows: Row[], plan: Plan, how: string, rss: { idle: number; peak: number; after: number }): string {
  const find = (name: string, env: string) => rows.find((r) => r.s.name === name && r.s.env === env)!;
  const main = table(
    [
      "scenario",
      "key",
      "bytes",
      "Capa req/s (p50 ms)",
      "raw Bun + SQLite, same SQL: req/s (p50 ms)",
      "Capa / raw",
      "bare Bun.serve, same bytes: req/s",
      "Capa / bare",
    ],
    rows.map(({ s, runs }) => [
      `${s.name}: ${s.about}`,
      s.env === "dev" ? "development (uncached)" : "production (cached)",
      s.bytes,
      `${fmt(rpsOf(runs.capa))} (${fmt(p50Of(runs.capa), 2)})`,
      `${fmt(rpsOf(runs.raw))} (${fmt(p50Of(runs.raw), 2)})`,
      fmt(
        ratioOf(runs.capa, runs.raw, (a, b) => a.rps / b.rps),
        2,
      ),
      s.env === "prod" ? fmt(rpsOf(runs.bare)) : "",
      s.env === "prod"
        ? fmt(
            ratioOf(runs.capa, runs.bare, (a, b) => a.rps / b.rps),
            2,
          )
        : "",
    ]),
  );
  const derived: (string | number)[][] = [];
  for (const env of ONLY ? [] : ["dev", "prod"]) {
    const label = env === "dev" ? "development" : "production";
    const rest = find("relation", env).runs.capa;
    for (const g of ["graphql-post", "graphql-get"]) {
      const x = find(g, env).runs.capa;
      derived.push([
        `${g} / REST relation read, ${label} key (req/s${env === "dev" ? "; issue 25's goal >= 0.85 uncached" : ""})`,
        fmt(
          ratioOf(x, rest, (a, b) => a.rps / b.rps),
          2,
        ),
      ]);
    }
    derived.push([
      `relation (author(name) expanded) / relation-id (the author as its id), ${label} key (req/s${env === "dev" ? "; issue 25's goal >= 0.9 uncached" : ""})`,
      fmt(
        ratioOf(find("relation", env).runs.capa, find("relation-id", env).runs.capa, (a, b) => a.rps / b.rps),
        2,
      ),
    ]);
    derived.push([
      `page 400 / page 1 (100,000 posts), Capa, ${label} key: req/s of page 400 / req/s of page 1${env === "prod" ? " (issue 25's goal >= 0.95 cached)" : ""}`,
      fmt(
        ratioOf(find("page-400", env).runs.capa, find("page-1", env).runs.capa, (a, b) => a.rps / b.rps),
        2,
      ),
    ]);
    for (const n of [400, 4000]) {
      for (const [who, t] of [
        ["Capa", "capa"],
        ["raw", "raw"],
      ] as const) {
        const p1 = find("page-1", env).runs[t];
        const pn = find(`page-${n}`, env).runs[t];
        derived.push([
          `page ${n.toLocaleString("en")} / page 1 (100,000 posts), ${who}, ${label} key: time per request (req/s of page 1 / req/s of page ${n}); p50 ratio${who === "Capa" && n === 4000 ? " (goal <= 1.2)" : ""}`,
          `${fmt(
            ratioOf(p1, pn, (a, b) => a.rps / b.rps),
            2,
          )}; ${fmt(
            ratioOf(pn, p1, (a, b) => a.p50 / b.p50),
            2,
          )}`,
        ]);
      }
    }
  }
  derived.push([
    "Capa server RSS, MiB: idle after start (goal <= 60) / peak during the development (uncached) rounds (goal <= 150) / after every round",
    `${fmt(rss.idle, 1)} / ${fmt(rss.peak, 1)} / ${fmt(rss.after, 1)}`,
  ]);
  return [
    `wrk -t1 -c${CONNECTIONS}, ${ROUNDS} alternating rounds of ${SECONDS} s per target (medians; each ratio is the median of the per-round ratios). ${how}.`,
    `Data: ${plan.scenarios.length / 2} scenarios on 10,000 posts with 100 authors, paging on 100,000 posts with 1,000 authors (bench/seed.ts).`,
    "Capa is the bundle `npm start` runs (dist/server/main.js) with CAPA_RATE_LIMIT/CAPA_RATE_BURST 1,000,000 and CAPA_INFLIGHT_* 10,000, logging at info to /dev/null.",
    "The raw server runs the statements Capa ran for the request (logged through Capa's query builder, with their parameters) and splices rows into JSON; it has no auth, limits, worker hop or cache.",
    "",
    main,
    "",
    table(["ratio", "value"], derived),
  ].join("\n");
}

if (import.meta.main) console.log(await benchSocket());
