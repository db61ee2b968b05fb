// How a failed start is reported, for the server and the CLI alike: one sentence on stderr,
// `capa: <reason>`, and exit code 1, never a stack trace. Kept apart from main.ts so the CLI can
// report errors without loading the whole app.
import { isIP } from "node:net";
import { ConfigError } from "./config.ts";
import { AppError } from "./errors.ts";

/** Prints one line and exits 1. */
export function die(reason: string): never {
  process.stderr.write(`capa: ${reason}\n`);
  process.exit(1);
}

/** The step a start-up failure happened in; it decides how the failure is worded. */
export type Phase = "config" | "data" | "listen" | "first-start";

/** Turns any start-up failure into one readable sentence. */
export function startupReason(err: unknown, phase: Phase = "config", where?: { host: string; port: number; dataDir: string }): string {
  if (err instanceof ConfigError || err instanceof AppError) return err.message;
  const e = err as { code?: string; message?: string } | null;
  const msg = firstLine(e?.message) || String(err);
  if (!where) return msg;
  if (phase === "data") return `cannot use the data directory ${where.dataDir}: ${msg}`;
  if (phase === "first-start") return `first start failed: ${msg}`;
  if (phase !== "listen") return msg;
  const at = `${where.host}:${where.port}`;
  switch (e?.code) {
    case "EADDRINUSE":
      // Bun reports a host name it cannot resolve as a port in use, so a name gets both readings.
      if (isIP(where.host) || where.host === "localhost") return `port ${where.port} on ${where.host} is in use; stop the other server or set PORT`;
      return `cannot listen on ${at}: the port is in use or HOST is not a name of this machine`;
    case "EACCES":
      return `no permission to listen on ${at}; use a PORT above 1023`;
    case "EADDRNOTAVAIL":
      return `HOST ${where.host} is not an address of this machine`;
    default:
      return `cannot listen on ${at}: ${msg}`;
  }
}

function firstLine(s: string | undefined): string {
  return (s ?? "").split("\n")[0]!.trim();
}
