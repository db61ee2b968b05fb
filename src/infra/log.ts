// Structured JSON logs, one object a line. Callers pass fields, never secrets: the redaction
// below is a last line of defence for fields whose name says they hold one.
import type { Config } from "../config.ts";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, "silent">;

const SECRET_FIELDS = /pass(word)?|secret|token|api[-_]?key|authorization|cookie/i;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_FIELDS.test(k) ? "[redacted]" : v;
  return out;
}

/** A logger writing JSON lines to `write` (stdout by default) at or above `level`. */
export function createLogger(level: Config["logLevel"], write: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Logger {
  const min = LEVELS[level];
  const emit = (lvl: Level, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...(fields ? redact(fields) : {}) }));
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
  };
}
