// Many projects on one VM: project files are opened lazily, kept in an LRU of bounded size and
// closed when evicted, so file handles stay bounded however many projects are read.
import { afterAll, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { startApp, type Harness } from "../harness.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { createProject } from "../../src/domain/projects/service.ts";
import { createModel } from "../../src/domain/models/service.ts";
import { createEntry } from "../../src/domain/entries/service.ts";
import { publishEntry } from "../../src/domain/entries/publish.ts";
import { mintKey } from "../../src/domain/keys/mint.ts";

let h: Harness;
afterAll(() => h.close());

/** Open handles of this process on project files (the database, its WAL and shared memory). */
function projectFds(): number {
  let n = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (require("node:fs").readlinkSync(`/proc/self/fd/${fd}`).includes(`${h.dir}/projects/`)) n++;
    } catch {
      // The descriptor closed while we looked.
    }
  }
  return n;
}

test("300 projects read one after another keep at most the LRU's worth of files open", async () => {
  h = startApp({ openProjectsMax: 10, readWorkerOpenProjects: 10, readPoolSize: 1 });
  const s = h.capa.services;
  const user = createUser(s, { email: "many@example.com", password: "many-password-1" });
  const keys: string[] = [];
  for (let i = 0; i < 300; i++) {
    const p = createProject(s, { name: `P${i}`, slug: `p-${i}`, ownerId: user.id });
    const ph = s.projects.get(p.id);
    createModel(s, ph, { name: "Note", namespace: "note", fields: [{ namespace: "text", type: "string" }] });
    const e = createEntry(s, ph, "system", { model: "note", data: { text: `note ${i}` } });
    publishEntry(s, ph, "system", e.id);
    keys.push(mintKey(s, p.id, { kind: "cli" }, { scopes: ["instance:read"] }).apiKey);
  }
  let peak = 0;
  for (let i = 0; i < 300; i++) {
    const r = await h.json("GET", "/api/entries/note?select=text", { headers: { "x-api-key": keys[i]! } });
    expect(r.status).toBe(200);
    expect(r.body.data[0].text).toBe(`note ${i}`);
    peak = Math.max(peak, projectFds());
  }
  expect(s.projects.openCount).toBeLessThanOrEqual(10);
  // Main thread and one read worker, each at most 10 files (both bounds set above) of up to 3 handles (db, -wal, -shm).
  expect(peak).toBeLessThanOrEqual(2 * 10 * 3);
  expect(peak).toBeGreaterThan(0);
}, 120_000);
