// The per-file record of replication-scale.ts's generation checks: when a project's generation
// changes, the report names the file, the shard that watched it, its last write and its shard's
// restarts around the check, so a reset can be traced to what the supervisor did at that moment
// (one 1,000-project run saw one such change and kept nothing to explain it).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

interface ShardPid {
  name: string;
  pid: number | null;
}

/** Each shard's process changes, as seen by the /healthz poller (every 500 ms, so to within that). */
export class ShardRestarts {
  private readonly last = new Map<string, number | null>();
  private readonly seen: { shard: string; at: number; pid: number | null }[] = [];

  note(shards: ShardPid[], at = Date.now()): void {
    for (const s of shards) {
      if (this.last.has(s.name) && this.last.get(s.name) === s.pid) continue;
      if (this.last.has(s.name)) this.seen.push({ shard: s.name, at, pid: s.pid });
      this.last.set(s.name, s.pid);
    }
  }

  /** A shard's process changes between two times, as ISO times with the new pid. */
  between(shard: string, from: number, to: number): string[] {
    return this.seen.filter((r) => r.shard === shard && r.at >= from && r.at <= to).map((r) => `${new Date(r.at).toISOString()} pid ${r.pid}`);
  }
}

/** Which shard's running configuration lists each project file (by id), from data/litestream/*.yml. */
export function shardMap(data: string): Map<string, string> {
  const out = new Map<string, string>();
  const dir = join(data, "litestream");
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".yml"));
  } catch {
    return out;
  }
  for (const n of names) {
    let text = "";
    try {
      text = readFileSync(join(dir, n), "utf8");
    } catch {
      continue; // Rewritten between the listing and the read.
    }
    for (const m of text.matchAll(/- path: "?([^"\n]+)"?/g)) {
      const id = /([^/]+)\.sqlite$/.exec(m[1]!)?.[1];
      if (id) out.set(id, n.slice(0, -4));
    }
  }
  return out;
}

/** The last write to a project file: the later mtime of the file and its WAL. */
export function lastWrite(data: string, id: string): string | null {
  let t = 0;
  for (const f of [`${id}.sqlite`, `${id}.sqlite-wal`]) {
    try {
      t = Math.max(t, statSync(join(data, "projects", f)).mtimeMs);
    } catch {
      // No WAL (or no file): the other one counts.
    }
  }
  return t ? new Date(t).toISOString() : null;
}

/** One line per changed file for the report; `window` bounds the restarts listed (ms since epoch). */
export function describeChanges(x: {
  data: string;
  changed: [string, string | null, string | null][];
  before: Map<string, string>;
  after: Map<string, string>;
  restarts: ShardRestarts;
  window: [number, number];
  output: string;
}) {
  return x.changed.map(([id, from, to]) => {
    const shards = [...new Set([x.before.get(id), x.after.get(id)].filter((s): s is string => s !== undefined))];
    return {
      id,
      generation: `${from} -> ${to}`,
      shardBefore: x.before.get(id) ?? null,
      shardAfter: x.after.get(id) ?? null,
      lastWrite: lastWrite(x.data, id),
      restarts: Object.fromEntries(shards.map((s) => [s, x.restarts.between(s, x.window[0], x.window[1])])),
      // The server's lines naming the file (Litestream's "clearing generation" among them).
      log: x.output
        .split("\n")
        .filter((l) => l.includes(id) && !l.includes('"request"'))
        .slice(-6),
    };
  });
}

/** The Litestream generation of each project file (by id), null before its first. */
export function generations(data: string, ids: string[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const id of ids) {
    try {
      out.set(id, readFileSync(join(data, "projects", `.${id}.sqlite-litestream`, "generation"), "utf8").trim());
    } catch {
      out.set(id, null);
    }
  }
  return out;
}
