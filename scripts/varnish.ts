// One way to start a real Varnish 7 (Debian's varnish and varnish-modules), for the edge tests
// and `bench edge`: deploy/varnish/capa.vcl exactly as shipped, beside a backend.vcl edited as an
// operator would (Capa's port instead of 3000), in a temp working directory with its own instance
// directory, listening on a free port of 127.0.0.1, with CAPA_EDGE_TOKEN in its environment.
// Without varnishd the caller fails: the suite never skips the edge silently (.ci/run installs it).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const DEPLOY = join(import.meta.dir, "..", "deploy", "varnish");

/** The path of varnishd, or an error saying how to install it. */
export function varnishdPath(): string {
  const path = Bun.which("varnishd") ?? Bun.which("varnishd", { PATH: "/usr/sbin:/usr/local/sbin:/sbin" });
  if (!path) throw new Error("varnishd is not installed: apt-get install -y varnish varnish-modules (the edge tests need a real Varnish 7)");
  return path;
}

/** A free TCP port of 127.0.0.1 (bound once and released). */
export function freePort(): number {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = s.port!;
  s.stop(true);
  return port;
}

export interface Varnish {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  dir: string;
  /** The instance directory (varnishlog -n). */
  instance: string;
  /** What varnishd wrote to stderr so far (for a failing test's message). */
  errors(): string;
  stop(): Promise<void>;
}

/**
 * Starts varnishd in the foreground with the shipped capa.vcl, Capa at `backendPort`; `params`
 * are more `-p name=value` (the benchmark lengthens log records to read whole xkey-purge headers).
 */
export async function startVarnish(backendPort: number, token: string, params: string[] = []): Promise<Varnish> {
  const varnishd = varnishdPath();
  const dir = mkdtempSync(join(tmpdir(), "capa-varnish-"));
  writeFileSync(join(dir, "capa.vcl"), readFileSync(join(DEPLOY, "capa.vcl")));
  const backend = readFileSync(join(DEPLOY, "backend.vcl"), "utf8");
  if (!backend.includes('.port = "3000";')) throw new Error("deploy/varnish/backend.vcl no longer names port 3000");
  writeFileSync(join(dir, "backend.vcl"), backend.replace('.port = "3000";', `.port = "${backendPort}";`));
  const port = freePort();
  const proc = Bun.spawn(
    [
      varnishd,
      "-F",
      "-j",
      "none",
      "-n",
      join(dir, "instance"),
      "-a",
      `127.0.0.1:${port}`,
      "-T",
      "none",
      "-s",
      "malloc,64m",
      "-f",
      join(dir, "capa.vcl"),
      "-p",
      `vcl_path=${dir}`,
      ...params.flatMap((p) => ["-p", p]),
    ],
    { cwd: dir, env: { ...process.env, CAPA_EDGE_TOKEN: token }, stdin: "ignore", stdout: "ignore", stderr: "pipe" },
  );
  const err = { text: "" };
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) err.text += decoder.decode(chunk, { stream: true });
  })();
  const origin = `http://127.0.0.1:${port}`;
  const until = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`varnishd exited with ${proc.exitCode}: ${err.text}`);
    // A synthetic answer proves the child serves: a PURGE without the token is 401 from the VCL itself.
    const ok = await fetch(origin, { method: "PURGE" }).then(
      (r) => r.status === 401,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until) throw new Error(`varnishd did not answer within 15 s: ${err.text}`);
    await Bun.sleep(50);
  }
  return {
    origin,
    port,
    dir,
    instance: join(dir, "instance"),
    errors: () => err.text,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
