// `bench socket`, the load generator: wrk (Debian's package), installed by this script when it is
// missing (apt-get update once, then apt-get install -y wrk; the bench and CI machines run as
// root). wrk is a C program with its own event loop: unlike a load loop in Bun it does not share
// the runtime, the allocator or the scheduler with what it measures.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One wrk run: throughput, median latency, and answers that were not 2xx/3xx. */
export interface WrkResult {
  rps: number;
  p50: number;
  requests: number;
  non2xx: number;
  socketErrors: number;
}

/** The wrk binary, installing the Debian package first when it is missing; says how it was found. */
export function ensureWrk(): { bin: string; how: string } {
  const found = Bun.which("wrk");
  if (found) return { bin: found, how: `wrk found at ${found}` };
  if (!Bun.which("apt-get")) throw new Error("bench socket: wrk is missing and there is no apt-get to install it (install wrk and run again)");
  const apt = (args: string[]) => {
    const r = Bun.spawnSync(["apt-get", ...args], { stdout: "inherit", stderr: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    if (r.exitCode !== 0) throw new Error(`bench socket: apt-get ${args.join(" ")} failed with ${r.exitCode} (wrk is needed; run as root)`);
  };
  apt(["update"]);
  apt(["install", "-y", "wrk"]);
  const bin = Bun.which("wrk");
  if (!bin) throw new Error("bench socket: apt-get installed wrk but it is not on PATH");
  return { bin, how: "wrk installed from Debian's packages by this run (apt-get install -y wrk)" };
}

const scripts = mkdtempSync(join(tmpdir(), "capa-wrk-"));
process.on("exit", () => rmSync(scripts, { recursive: true, force: true }));
let n = 0;

/** A Lua script that sets the method, headers and body of every request (long brackets: no escapes to get wrong). */
function luaScript(method: string, headers: Record<string, string>, body: string | null): string {
  const lines = [`wrk.method = "${method}"`];
  for (const [k, v] of Object.entries(headers)) lines.push(`wrk.headers["${k}"] = [==[${v}]==]`);
  if (body !== null) lines.push(`wrk.body = [==[${body}]==]`);
  const file = join(scripts, `req-${n++}.lua`);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

const UNIT: Record<string, number> = { us: 0.001, ms: 1, s: 1000 };

/** Runs wrk (-t1, `connections` connections) against `url` for `seconds` and parses its report. */
export async function wrk(
  bin: string,
  url: string,
  req: { method: string; headers: Record<string, string>; body: string | null },
  seconds: number,
  connections = 32,
): Promise<WrkResult> {
  const script = luaScript(req.method, req.headers, req.body);
  const proc = Bun.spawn([bin, "-t1", `-c${connections}`, `-d${seconds}s`, "--latency", "-s", script, url], { stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  if ((await proc.exited) !== 0) throw new Error(`wrk failed: ${err.trim() || out.trim()}`);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const p50 = /^\s+50%\s+([\d.]+)(us|ms|s)\s*$/m.exec(out);
  const total = /(\d+) requests in/.exec(out);
  if (!rps || !p50 || !total) throw new Error(`cannot read wrk's report:\n${out}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: Number(rps[1]),
    p50: Number(p50[1]) * UNIT[p50[2]!]!,
    requests: Number(total[1]),
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    socketErrors: sock ? sock.slice(1).reduce((a, x) => a + Number(x), 0) : 0,
  };
}
