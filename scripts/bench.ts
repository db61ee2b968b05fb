// Benchmarks, one subcommand each: `bun scripts/bench.ts <name>...` runs the named ones,
// `bun scripts/bench.ts` runs them all. Each prints a small Markdown table. To add one, write an
// async function and give it a row in BENCHMARKS.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { benchEntries, benchMe, type Figure } from "./bench/entries.ts";
import { benchGraphql } from "./bench/graphql.ts";
import { benchSocket } from "./bench/socket.ts";
import { benchWebhooks } from "./bench/webhooks.ts";
import { benchMedia } from "./bench/media.ts";
import { benchMediaStatements } from "./bench/media-statements.ts";
import { benchAdmin } from "./bench/admin.ts";
import { benchCors } from "./bench/cors.ts";
import { benchOpenapi } from "./bench/openapi.ts";
import { benchEdge } from "./bench/edge.ts";
import { benchLists } from "./bench/lists.ts";
import { benchLocales } from "./bench/locales.ts";
import { benchInstall } from "./bench/install.ts";
import { buildServer } from "./build-server.ts";

const ROOT = join(import.meta.dir, "..");

/** Every benchmark by name, in the order `bun scripts/bench.ts` runs them. */
const BENCHMARKS: Record<string, { about: string; run: () => Promise<string> }> = {
  startup: { about: "spawn to first answer, and idle RSS, for a first and a second start", run: startup },
  me: { about: "GET /api/me throughput against a bare Bun.serve answering the same bytes", run: figures(benchMe) },
  entries: { about: "keyset paging at depth, filtered reads on 100k entries, cached production throughput", run: figures(benchEntries) },
  lists: {
    about: "the management list of 10,000 entries sorted by a field: page 1 and page 400 by cursor (with the count), the index made once, a search",
    run: figures(benchLists),
  },
  locales: {
    about:
      "a localized list read in de-CH (de-CH -> de -> en) with a filter and a sort on the localized field against the same values without locales, uncached and cached, and its keyset page 400 against page 1",
    run: figures(benchLocales),
  },
  cors: { about: "a cached production read with an Origin header (CORS headers on the answer) against the same read without", run: figures(benchCors) },
  openapi: {
    about: "a cached GET /api/openapi.json against a cached production entries read, over a socket",
    run: figures(benchOpenapi),
  },
  graphql: {
    about: "a 25-entry list with one relation against REST, statements per relation level, schema build and cached fetch for 50 models",
    run: figures(benchGraphql),
  },
  webhooks: {
    about:
      "1,000 publishes to 3 endpoints on a loopback HTTPS receiver: time from last publish to last of 3,000 deliveries, publish throughput with and without the outbox",
    run: figures(benchWebhooks),
  },
  admin: {
    about:
      "the admin app in Chromium: a click on a model to 25 rendered rows of 100k entries, first-screen bytes, main-thread work per keystroke and keydown to the next frame with 60 fields (each against the same page without scripts), /v2 list page 4,000 by cursor",
    run: figures(benchAdmin),
  },
  media: {
    about:
      "serving an original image against a bare Bun.serve of the file, a cached variant against the original, a first render, single-flight, RSS while a 1 GiB upload streams, and the statements of a 25-entry page with media references",
    run: figures(async () => [...(await benchMedia()), ...(await benchMediaStatements())]),
  },
  edge: {
    about:
      "behind a real Varnish 7 with deploy/varnish/capa.vcl: a cached read through Varnish against Capa's own (wrk), publish to a fresh edge read at p99 over 200 publishes, and the PURGE calls of a 3,000-entry bulk publish as varnishlog saw them",
    run: figures(benchEdge),
  },
  install: { about: "npm ci --omit=dev on a fresh clone: node_modules MiB, top packages", run: () => benchInstall() },
  load: { about: "scripts/load.ts for 60 s: 20 projects x 3 keys at the concurrency limits", run: loadRun },
  writes: {
    about: "scripts/write-load.ts for 60 s: 24 writers into one project with Litestream replicating to a file replica; 5xx and acknowledged writes missing",
    run: () => scriptRun("write-load.ts", ["60", "24"]),
  },
  socket: {
    about:
      "the real server over a socket under wrk, per scenario and key, against a raw Bun.serve + bun:sqlite server running the same SQL on the same file and a bare Bun.serve of the same bytes",
    run: benchSocket,
  },
};

/** Runs a script of scripts/ in its own process and returns what it prints (a table). */
async function scriptRun(script: string, args: string[]): Promise<string> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "scripts", script), ...args], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  return out.trim();
}

/** Runs scripts/load.ts in its own process and returns its table. */
async function loadRun(): Promise<string> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "scripts", "load.ts"), "60"], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  return out.trim();
}

/** Runs a benchmark that returns figures and renders them as one table. */
function figures(fn: () => Promise<Figure[]>): () => Promise<string> {
  return async () => {
    const rows = await fn();
    return table(
      ["figure", "value", "baseline (same run)", "ratio"],
      rows.map((r) => [r.figure, r.value, r.baseline, r.ratio]),
    );
  };
}

/** A TCP port nobody listens on right now. */
function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, reusePort: false, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/** Resident set size of a process in KiB (Linux only; null elsewhere). */
function rssKiB(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

interface StartRun {
  ms: number;
  status: number;
  rssKiB: number | null;
}

/** Spawns the server, polls GET /api/versions every 5 ms until it answers, then waits 1 s and reads the RSS. */
async function timeStart(env: Record<string, string>, entry: string): Promise<StartRun> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}/api/versions`;
  const t0 = performance.now();
  const proc = Bun.spawn([process.execPath, entry], {
    cwd: ROOT,
    env: { ...process.env, ...env, HOST: "127.0.0.1", PORT: String(port), CAPA_LOG_LEVEL: "warn" },
    stdout: "ignore",
    stderr: "pipe",
  });
  try {
    let status = 0;
    while (status === 0) {
      if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}: ${(await new Response(proc.stderr).text()).trim()}`);
      if (performance.now() - t0 > 30_000) throw new Error("server did not answer within 30 s");
      // Any HTTP answer counts: /api/versions may not be routed yet, but the server is up.
      status = await fetch(url).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 0) await Bun.sleep(5);
    }
    const ms = performance.now() - t0;
    await Bun.sleep(1000);
    return { ms, status, rssKiB: rssKiB(proc.pid) };
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
}

/**
 * The server `npm start` runs (the bundle): a first start (bootstrap of the owner), a second start
 * on the same data directory, and a first start with the demo project; then the second start
 * again from the sources (`bun src/main.ts`, what the tests run), for comparison.
 */
async function startup(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "capa-bench-"));
  const demoDir = mkdtempSync(join(tmpdir(), "capa-bench-demo-"));
  const owner = { CAPA_ADMIN_EMAIL: "bench@capa.local", CAPA_ADMIN_PASSWORD: "bench-password-1" };
  const bundle = await buildServer({ quiet: true });
  try {
    const runs: [string, StartRun][] = [
      ["first start (owner, CAPA_DEMO=0)", await timeStart({ ...owner, CAPA_DEMO: "0", CAPA_DATA_DIR: dir }, bundle)],
      ["second start, same data dir", await timeStart({ ...owner, CAPA_DEMO: "0", CAPA_DATA_DIR: dir }, bundle)],
      ["first start with the demo project", await timeStart({ ...owner, CAPA_DATA_DIR: demoDir }, bundle)],
      ["second start, from the sources", await timeStart({ ...owner, CAPA_DEMO: "0", CAPA_DATA_DIR: dir }, "src/main.ts")],
    ];
    return [
      table(
        ["run", "spawn to first answer (ms)", "status", "idle RSS after 1 s (MiB)"],
        runs.map(([name, r]) => [name, r.ms.toFixed(0), r.status, r.rssKiB === null ? "n/a" : (r.rssKiB / 1024).toFixed(1)]),
      ),
      "",
      "The answer is GET /api/versions polled every 5 ms. The first three rows run dist/server/main.js, the bundle `npm start` runs (scripts/build-server.ts).",
    ].join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(demoDir, { recursive: true, force: true });
  }
}

async function main(args: string[]): Promise<void> {
  const names = args.length ? args : Object.keys(BENCHMARKS);
  const unknown = names.filter((n) => !BENCHMARKS[n]);
  if (unknown.length) {
    const list = Object.entries(BENCHMARKS)
      .map(([n, b]) => `  ${n}: ${b.about}`)
      .join("\n");
    process.stderr.write(`bench: unknown benchmark ${unknown.join(", ")}; there are:\n${list}\n`);
    process.exit(1);
  }
  const sections: string[] = [];
  for (const n of names) {
    const md = `## ${n}\n\n${BENCHMARKS[n]!.about}.\n\n${await BENCHMARKS[n]!.run()}\n`;
    console.log(md);
    sections.push(md);
  }
  // A run of every benchmark is the project's performance record.
  if (args.length === 0) {
    const head = [
      "# Performance",
      "",
      `Written by \`bun scripts/bench.ts\` on ${new Date().toISOString().slice(0, 10)} (Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores, ${process.platform}/${process.arch}).`,
      "Every ratio compares against a baseline measured in the same run, since machines here are noisy.",
      "",
    ].join("\n");
    writeFileSync(join(ROOT, "docs", "performance.md"), `${head}\n${sections.join("\n")}`);
    console.log("wrote docs/performance.md");
  }
}

await main(process.argv.slice(2));
