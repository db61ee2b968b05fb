// The restore drill, with the real server and the real Litestream binary: write over HTTP, wait
// until the file replica has caught up (the replication point), kill the server with SIGKILL,
// wipe the data directory, `capa restore`, start again, and read every entry acknowledged before
// the replication point back byte for byte. Restoring into a non-empty directory is refused.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../spawn.ts";
import { alive, call, health, replicaDirs, serveReplicated, waitFor } from "./replica.ts";
import { wideModes } from "../../src/storage/permissions.ts";
import { png64 } from "../media/fixtures.ts";

const dirs = replicaDirs();
afterAll(() => dirs.remove());

const ENTRIES = 40;

test("restore drill: SIGKILL, wipe, restore, every acknowledged entry is back byte for byte", async () => {
  const t0 = performance.now();
  const first = await serveReplicated(dirs.env);
  const { origin, token } = first;
  expect((await call(origin, token, "POST", "/v2/projects", { name: "Drill", slug: "drill" })).status).toBe(201);
  const model = await call(origin, token, "POST", "/v2/models", {
    name: "Note",
    namespace: "note",
    fields: [
      { namespace: "title", type: "string" },
      { namespace: "body", type: "markdown" },
      { namespace: "rank", type: "number" },
    ],
  });
  expect(model.status).toBe(201);

  // Entries of several shapes: drafts, published ones, edited ones, and one deleted.
  const ids: string[] = [];
  let maxLag = 0;
  for (let i = 0; i < ENTRIES; i++) {
    const r = await call(origin, token, "POST", "/v2/model-instances", {
      model: "note",
      data: { title: `Note ${i} ✓`, body: `# ${i}\n${"x".repeat(i * 50)}`, rank: i },
    });
    expect(r.status).toBe(201);
    ids.push(r.body.id);
    if (i % 3 === 0) expect((await call(origin, token, "POST", `/v2/model-instances/${r.body.id}/publish`, {})).status).toBe(200);
    if (i % 5 === 0) expect((await call(origin, token, "PATCH", `/v2/model-instances/${r.body.id}`, { data: { title: `Note ${i} edited` } })).status).toBe(200);
    if (i % 4 === 0) maxLag = Math.max(maxLag, (await health(origin)).litestream.lagSeconds ?? 0);
  }
  // Files of the media library, backed up by the media-backup job (decisions.md section 10).
  const uploads: { path: string; bytes: Uint8Array; replica: string }[] = [];
  for (const [name, bytes] of [
    ["photo.png", await png64()],
    ["notes.txt", new TextEncoder().encode("media survives the drill ✓")],
  ] as const) {
    const fd = new FormData();
    fd.append("file", new Blob([bytes as BlobPart]), name);
    const up = await fetch(`${origin}/v2/media`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: fd });
    expect(up.status).toBe(201);
    const rec = (await up.json()) as { id: string; url: string };
    const path = new URL(rec.url).pathname;
    uploads.push({ path, bytes, replica: join(dirs.replica, "media", path.split("/")[2]!, rec.id) });
  }
  const gone = ids.pop()!;
  expect((await call(origin, token, "DELETE", `/v2/model-instances/${gone}`)).status).toBe(204);

  // The replication point: the replica covers every write, twice in a row a sync apart.
  const writesDone = performance.now();
  let firstZeroMs = 0;
  const pid = await waitFor("the replica to catch up", 20_000, async () => {
    const h = await health(origin);
    const projectReplica = join(dirs.replica, "projects");
    maxLag = Math.max(maxLag, h.litestream.lagSeconds ?? 0);
    if (h.litestream.state !== "running" || h.litestream.databases !== 2 || h.litestream.lagSeconds !== 0 || !existsSync(projectReplica)) return undefined;
    if (!uploads.every((u) => existsSync(u.replica))) return undefined;
    firstZeroMs ||= Math.round(performance.now() - writesDone);
    await Bun.sleep(1100);
    const again = await health(origin);
    return again.litestream.lagSeconds === 0 ? again.litestream.pid! : undefined;
  });
  const caughtUpMs = Math.round(performance.now() - writesDone);

  // What was acknowledged, as the API answers it.
  const before = new Map<string, string>();
  for (const id of ids) {
    const r = await call(origin, token, "GET", `/v2/model-instances/${id}`);
    expect(r.status).toBe(200);
    before.set(id, r.text);
  }
  const list = (await call(origin, token, "GET", "/v2/model-instances?model=note&limit=100")).text;

  // The crash: the machine is lost with its disk. Every Litestream shard is killed too, so nothing
  // reaches the replica after the replication point (a server killed alone lets Litestream sync
  // once more, and a shard left running would write into the wiped directory).
  const shardPids = ((await health(origin)).litestream.shards as { pid: number | null }[]).flatMap((s) => (s.pid === null ? [] : [s.pid]));
  for (const p of new Set([pid, ...shardPids])) process.kill(p, "SIGKILL");
  first.server.proc.kill("SIGKILL");
  await first.server.exited();
  await waitFor("litestream to be gone", 5_000, async () => ([pid, ...shardPids].some(alive) ? undefined : true));
  // secret.key is not in the replica; the operator keeps it apart (docs/backup.md).
  const key = readFileSync(join(dirs.data, "secret.key"), "utf8");
  rmSync(dirs.data, { recursive: true, force: true });

  // A directory holding anything is refused, in one line, and left as it was.
  mkdirSync(dirs.data);
  writeFileSync(join(dirs.data, "stray.txt"), "keep me");
  const refused = await runCli(["restore"], dirs.env);
  expect(refused.code).toBe(1);
  expect(refused.stdout).toBe("");
  expect(refused.stderr.trim().split("\n")).toHaveLength(1);
  expect(refused.stderr).toContain("is not empty");
  expect(readdirSync(dirs.data)).toEqual(["stray.txt"]);
  rmSync(join(dirs.data, "stray.txt"));
  // The key file alone does not make the directory "not empty": it goes back first.
  writeFileSync(join(dirs.data, "secret.key"), key, { mode: 0o600 });

  const restored = await runCli(["restore"], dirs.env);
  expect(restored.stderr).toBe("");
  expect(restored.code).toBe(0);
  expect(restored.stdout).toContain("Restored control.sqlite and 1 project file");
  expect(restored.stdout).toContain("Restored 2 media files");
  expect(readdirSync(dirs.data).sort()).toEqual(["control.sqlite", "media", "projects", "secret.key"]);
  // Restored files are 0600 in 0700 folders, like new ones.
  expect(wideModes(dirs.data)).toEqual([]);

  // The second life: same owner, same project, same entries, same bytes.
  const second = await serveReplicated(dirs.env);
  try {
    for (const [id, body] of before) {
      const r = await call(second.origin, second.token, "GET", `/v2/model-instances/${id}`);
      expect(r.status).toBe(200);
      expect(r.text).toBe(body);
    }
    expect((await call(second.origin, second.token, "GET", `/v2/model-instances/${gone}`)).status).toBe(404);
    for (const u of uploads) {
      const file = await fetch(second.origin + u.path);
      expect(file.status).toBe(200);
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array(u.bytes));
    }
    expect((await call(second.origin, second.token, "GET", "/v2/model-instances?model=note&limit=100")).text).toBe(list);
    // With its key back, the restored control file's sealed JWT secret opens: the old session still works.
    expect((await call(second.origin, token, "GET", "/v2/model-instances?model=note&limit=100")).text).toBe(list);
  } finally {
    expect(await second.server.stop()).toBe(0);
  }
  const drillMs = Math.round(performance.now() - t0);
  console.log(
    `restore drill: ${ids.length} entries; largest lag seen ${maxLag} s; lag 0 ${firstZeroMs} ms after the last write, ` +
      `confirmed ${caughtUpMs} ms after; drill ${drillMs} ms`,
  );
}, 60_000);
