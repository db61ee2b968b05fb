// Helpers for tests that run Capa as a child process (the CLI and the server), the way an
// operator does: a temp data directory, a clean environment, and output read as it arrives.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..");

/** A temp data directory, removed by `remove()`. */
export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "capa-proc-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The environment of a child: the parent's, minus every Capa setting, plus `over`. Like `npm start`
 * and the Docker image, it caps glibc's malloc arenas at 2 (docs/performance.md, "Image decodes under a budget"),
 * unless the parent sets its own value.
 */
export function childEnv(over: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("CAPA_") && k !== "PORT" && k !== "HOST") env[k] = v;
  }
  return { MALLOC_ARENA_MAX: "2", ...env, CAPA_LOG_LEVEL: "silent", HOST: "127.0.0.1", ...over };
}

/** Runs `bun src/cli.ts ...args` to the end. */
export async function runCli(args: string[], env: Record<string, string>) {
  const proc = Bun.spawn([process.execPath, "src/cli.ts", ...args], { cwd: ROOT, env: childEnv(env), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** A server started with `bun src/main.ts` (or another entry); `output` grows as the child writes. */
export interface ServerProc {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  output(): string;
  errors(): string;
  /** Resolves with the origin once "Capa listening on ..." is printed; rejects if the child exits first. */
  listening(timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code once the child exits and its output is read. */
  exited(): Promise<number>;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number>;
}

async function collect(stream: ReadableStream<Uint8Array>, sink: { text: string }): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) sink.text += decoder.decode(chunk, { stream: true });
}

/** Starts the server from the sources, or from `entry` (the bundle `npm start` runs). */
export function startServer(env: Record<string, string>, entry = "src/main.ts"): ServerProc {
  const proc = Bun.spawn([process.execPath, entry], { cwd: ROOT, env: childEnv(env), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const out = { text: "" };
  const err = { text: "" };
  const done = Promise.all([collect(proc.stdout, out), collect(proc.stderr, err)]);
  return {
    proc,
    output: () => out.text,
    errors: () => err.text,
    async listening(timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const m = /Capa listening on (http:\/\/\S+)/.exec(out.text);
        if (m) return m[1]!;
        if (proc.exitCode !== null) {
          await done;
          throw new Error(`server exited with ${proc.exitCode}: ${err.text.trim()}`);
        }
        await Bun.sleep(5);
      }
      throw new Error(`server did not listen within ${timeoutMs} ms; output: ${out.text}${err.text}`);
    },
    async exited() {
      const code = await proc.exited;
      await done;
      return code;
    },
    stop() {
      proc.kill("SIGTERM");
      return this.exited();
    },
  };
}
