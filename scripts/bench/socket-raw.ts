// `bench socket`, the baseline: a plain Bun.serve + bun:sqlite server that runs, for each
// scenario, exactly the statements Capa ran for it (logged in the plan file, with their
// parameters) on the same project file, renders the rows to JSON minimally and answers. It has
// no auth, no limits, no worker hop and no cache: the floor Capa's read path is measured against.
// Routes: `/<scenario>/<dev|prod>`. Prints `READY <json>` once it listens.
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Plan, Statement } from "./socket-scenarios.ts";

const plan = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Plan;
const files = new Map<string, Database>();

/** A read connection with the read pragmas Capa sets on its own connections. */
function open(projectId: string): Database {
  let db = files.get(projectId);
  if (!db) {
    db = new Database(join(plan.dir, "projects", `${projectId}.sqlite`), { readonly: true, strict: true });
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec("PRAGMA cache_size = -2000");
    db.exec("PRAGMA mmap_size = 268435456");
    db.exec("PRAGMA temp_store = MEMORY");
    files.set(projectId, db);
  }
  return db;
}

/** A row as a JSON object; the stored `data` column is JSON text already and is spliced in. */
function row(r: Record<string, unknown>): string {
  let out = "";
  for (const k in r) out += `${out ? "," : "{"}${JSON.stringify(k)}:${k === "data" ? (r[k] as string) : JSON.stringify(r[k])}`;
  return `${out}}`;
}

const routes = new Map<string, { db: Database; statements: Statement[] }>();
for (const s of plan.scenarios) routes.set(`/${s.name}/${s.env}`, { db: open(s.projectId), statements: s.statements });

const headers = { "content-type": "application/json" };
const server = Bun.serve({
  port: 0,
  reusePort: false,
  hostname: "127.0.0.1",
  fetch(req) {
    const r = routes.get(new URL(req.url).pathname);
    if (!r) return new Response("not found", { status: 404 });
    // The first statement is the page (or the entry); the next ones are relation levels.
    let body = "";
    r.statements.forEach((st, i) => {
      const q = r.db.query(st.sql);
      if (st.mode === "get") {
        const one = q.get(...(st.params as never[])) as Record<string, unknown> | null;
        body += i === 0 ? `{"data":${one ? row(one) : "null"}` : `,"included":[${one ? row(one) : ""}]`;
        return;
      }
      const rows = q.all(...(st.params as never[])) as Record<string, unknown>[];
      // The page query reads one row more than the page, to know whether another page follows.
      const shown = i === 0 ? rows.slice(0, 25) : rows;
      body += `${i === 0 ? '{"data":[' : `,"included${i}":[`}${shown.map(row).join(",")}]`;
    });
    return new Response(`${body}}`, { headers });
  },
});
console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${server.port}` })}`);
