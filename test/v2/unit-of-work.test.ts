// The unit of work (src/domain/unit-of-work.ts): one transaction per write, events with their
// outbox rows, after-commit work only after the outermost commit, IMMEDIATE transactions.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { ROOT } from "../spawn.ts";
import { write } from "../../src/domain/unit-of-work.ts";
import { createEntry, updateEntry } from "../../src/domain/entries/service.ts";
import { publishEntry } from "../../src/domain/entries/publish.ts";
import { LATEST_VERSION } from "../../src/domain/versions.ts";
import { createModel } from "../../src/domain/models/service.ts";

let h: Harness;
let owner: Awaited<ReturnType<typeof withOwner>>;
const prodKey = async () => {
  const r = await h.json("POST", "/v2/tenants/api-keys", { token: owner.token, body: { name: "site", scopes: ["instance:read"], environment: "production" } });
  return r.body.apiKey as string;
};

beforeEach(async () => {
  h = startApp();
  owner = await withOwner(h);
  createModel(h.capa.services, h.capa.services.projects.get(owner.project.id), {
    name: "Post",
    namespace: "post",
    fields: [{ namespace: "title", type: "string" }],
  });
});
afterEach(() => h.close());

describe("write(s, h, work)", () => {
  test("an app built without importing the webhook modules still writes deliveries (own process)", async () => {
    const proc = Bun.spawn([process.execPath, join(ROOT, "test/fixtures/deliveries-via-app.ts")], {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, CAPA_LOG_LEVEL: "silent" },
    });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect({ code, err }).toEqual({ code: 0, err: "" });
    expect(JSON.parse(out.trim())).toEqual({ n: 1, type: "instance.published" });
  });

  test("a read between an inner write and the outer commit never caches stale bytes", async () => {
    const s = h.capa.services;
    const p = s.projects.get(owner.project.id);
    const key = await prodKey();
    const e = createEntry(s, p, "system", { model: "post", data: { title: "First" } });
    publishEntry(s, p, "system", e.id);
    const path = `/api/entries/post/${e.id}`;
    const first = await h.req("GET", path, { headers: { "x-api-key": key } });
    const staleBytes = new Uint8Array(await first.arrayBuffer());
    let prefixInside = "";
    write(s, p, () => {
      // Inner writes: a new draft, then its publish, which tells the read caches.
      updateEntry(s, p, "system", e.id, { data: { title: "Second" } });
      publishEntry(s, p, "system", e.id);
      // A read starting now sees the committed (old) copy and caches it under the prefix of now,
      // exactly as the entries route keys it.
      prefixInside = s.renderCache.prefix(p.id);
      s.renderCache.set(`${prefixInside}instance:read|${LATEST_VERSION}|${path}`, { body: staleBytes, etag: '"stale"', models: [], entryIds: [], edge: null });
    });
    // The notice went out after the commit, so that copy is unreachable and the read is fresh.
    expect(s.renderCache.prefix(p.id)).not.toBe(prefixInside);
    const r = await h.json("GET", path, { headers: { "x-api-key": key } });
    expect(r.body.data.title).toBe("Second");
  });

  test("after-commit work runs once, after the outermost commit; a rolled-back savepoint drops its own", () => {
    const s = h.capa.services;
    const p = s.projects.get(owner.project.id);
    const seen: string[] = [];
    write(s, p, (outer) => {
      outer.afterCommit(() => seen.push(`outer, in transaction: ${p.sqlite.inTransaction}`));
      write(s, p, (inner) => inner.afterCommit(() => seen.push("inner")));
      expect(() =>
        write(s, p, (failing) => {
          failing.afterCommit(() => seen.push("rolled back"));
          throw new Error("no");
        }),
      ).toThrow("no");
      seen.push("work done");
    });
    expect(seen).toEqual(["work done", "outer, in transaction: false", "inner"]);
  });

  test("an event and its outbox rows roll back with the change", () => {
    const s = h.capa.services;
    const p = s.projects.get(owner.project.id);
    const count = () => (p.sqlite.query("SELECT count(*) AS n FROM events").get() as { n: number }).n;
    const before = count();
    expect(() =>
      write(s, p, (tx) => {
        tx.emit({ type: "instance.deleted", actor: { kind: "system" }, data: {} });
        throw new Error("after the event");
      }),
    ).toThrow("after the event");
    expect(count()).toBe(before);
  });

  test("a write takes the write lock at BEGIN (IMMEDIATE): another connection cannot write before the work's first statement", () => {
    const s = h.capa.services;
    const p = s.projects.get(owner.project.id);
    const other = new Database(s.projects.path(p.id));
    other.exec("PRAGMA busy_timeout = 0");
    let refused = "";
    write(s, p, () => {
      try {
        other.exec("INSERT INTO settings (name, value) VALUES ('probe', '1')");
      } catch (e) {
        refused = String(e);
      }
    });
    other.close();
    expect(refused).toBe("SQLiteError: database is locked");
  });

  test("a unit of work refuses to start inside a raw transaction it does not own", () => {
    const s = h.capa.services;
    const p = s.projects.get(owner.project.id);
    expect(() => p.sqlite.transaction(() => write(s, p, () => 1))()).toThrow("A unit of work cannot start inside a transaction it does not own.");
  });
});
