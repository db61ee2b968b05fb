// `bun scripts/write-load.ts [seconds] [writers]`: concurrent writers into one project of a real
// server process with Litestream replicating to a file replica (issue 15: write transactions
// must wait for the lock, never answer 500). Each writer creates entries, saves new drafts of
// them and publishes them over HTTP for a bounded time (default 60 s, 24 writers). At the end every
// acknowledged write is checked against the database: each entry exists, its draft version is
// one more than the saves acknowledged for it, and its published copy is the version last
// acknowledged as published. Prints one Markdown table.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";

const seconds = Math.min(600, Number(process.argv[2] ?? 60));
const writers = Math.min(200, Number(process.argv[3] ?? 24));
const ROOT = join(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "capa-write-load-"));
const replica = mkdtempSync(join(tmpdir(), "capa-write-replica-"));
const email = "load@example.com";
const password = "load-password-1";

const proc = Bun.spawn([process.execPath, join(ROOT, "src/main.ts")], {
  cwd: ROOT,
  env: {
    ...process.env,
    CAPA_DATA_DIR: dir,
    CAPA_REPLICA_URL: `file://${replica}`,
    CAPA_ADMIN_EMAIL: email,
    CAPA_ADMIN_PASSWORD: password,
    CAPA_DEMO: "0",
    CAPA_LOG_LEVEL: "warn",
    PORT: "0",
    HOST: "127.0.0.1",
  },
  stdout: "pipe",
  stderr: "inherit",
});
const reader = proc.stdout.getReader();
let out = "";
let base = "";
while (!base) {
  const { value, done } = await reader.read();
  if (done) throw new Error(`server exited: ${out}`);
  out += new TextDecoder().decode(value);
  base = /Capa listening on (\S+)/.exec(out)?.[1] ?? "";
}

const json = async (method: string, path: string, body?: unknown, token?: string) => {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
};
const token = (await json("POST", "/v2/user/login", { email, password })).body.accessToken as string;
const project = (await json("POST", "/v2/projects", { name: "Write load", slug: "write-load" }, token)).body as { id: string };
await json("PUT", "/v2/projects/current", { projectId: project.id }, token);
const model = await json("POST", "/v2/models", { name: "Note", namespace: "note", fields: [{ namespace: "title", type: "string" }] }, token);
if (model.status !== 201) throw new Error(`model: ${model.status} ${JSON.stringify(model.body)}`);

/** What the server acknowledged, per entry: saves after creation and the version last published. */
const acked = new Map<string, { saves: number; published: number | null }>();
const statuses: Record<number, number> = {};
const failures: string[] = [];
const end = performance.now() + seconds * 1000;
let requests = 0;

async function writer(w: number) {
  const mine: string[] = [];
  let i = 0;
  while (performance.now() < end) {
    const step = i++ % 4;
    let r: { status: number; body: any };
    if (step === 0 || mine.length === 0) {
      r = await json("POST", "/v2/model-instances", { model: "note", data: { title: `w${w} #${i}` } }, token);
      if (r.status === 201) {
        mine.push(r.body.id);
        acked.set(r.body.id, { saves: 0, published: null });
      }
    } else if (step === 3) {
      const id = mine[i % mine.length]!;
      r = await json("POST", `/v2/model-instances/${id}/publish`, {}, token);
      if (r.status === 200) acked.get(id)!.published = r.body.publishedVersion;
    } else {
      const id = mine[i % mine.length]!;
      r = await json("PATCH", `/v2/model-instances/${id}`, { data: { title: `w${w} save ${i}` } }, token);
      if (r.status === 200) acked.get(id)!.saves++;
    }
    requests++;
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    if (r.status >= 500 && failures.length < 10) failures.push(`${r.status} ${JSON.stringify(r.body)}`);
  }
}

const t0 = performance.now();
await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
const took = (performance.now() - t0) / 1000;
proc.kill("SIGTERM");
await proc.exited;

// Every acknowledged write is in the file.
const db = new Database(join(dir, "projects", `${project.id}.sqlite`), { readonly: true });
let lost = 0;
for (const [id, a] of acked) {
  const row = db.query("SELECT draft_version AS v, published_version AS p FROM entries WHERE id = ?").get(id) as { v: number; p: number | null } | null;
  if (!row || row.v !== a.saves + 1 || (a.published !== null && row.p !== a.published)) lost++;
}
db.close();
const fives = Object.entries(statuses)
  .filter(([s]) => Number(s) >= 500)
  .reduce((n, [, c]) => n + c, 0);
rmSync(dir, { recursive: true, force: true });
rmSync(replica, { recursive: true, force: true });

console.log(`| Writers into one project, Litestream to a file replica | ${seconds} s |`);
console.log("|---|---|");
console.log(`| Requests | ${requests} (${(requests / took).toFixed(0)}/s) |`);
console.log(
  `| Statuses | ${Object.entries(statuses)
    .map(([s, c]) => `${s}: ${c}`)
    .join(", ")} |`,
);
console.log(`| 5xx | ${fives}${failures.length ? ` (${failures.join("; ")})` : ""} |`);
console.log(`| Entries written | ${acked.size} |`);
console.log(`| Acknowledged writes missing or different in the file | ${lost} |`);
console.log(`| Writers | ${writers} |`);
process.exit(fives === 0 && lost === 0 ? 0 : 1);
