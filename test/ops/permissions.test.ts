// Hardening item 7 (file modes): the data directory and the folders Capa makes in it are 0700,
// every file 0600 (control.sqlite, project files, their -wal and -shm, secret.key), whatever the
// process umask; a start warns, one line per path, about anything wider.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { startServer, tempDataDir } from "../spawn.ts";
import { wideModes } from "../../src/storage/permissions.ts";

const mode = (path: string) => `0${(statSync(path).mode & 0o777).toString(8)}`;

describe("modes of what Capa creates", () => {
  let parent: string;
  let dir: string;
  let h: Harness;
  beforeAll(async () => {
    parent = mkdtempSync(join(tmpdir(), "capa-modes-"));
    dir = join(parent, "data");
    // A umask that would otherwise leave everything readable by all.
    const old = process.umask(0o022);
    try {
      h = startApp({}, dir);
    } finally {
      process.umask(old);
    }
    const { token } = await withOwner(h);
    const m = await h.json("POST", "/v2/models", { token, body: { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] } });
    expect(m.status).toBe(201);
    expect((await h.json("POST", "/v2/model-instances", { token, body: { model: "post", data: { title: "Hi" } } })).status).toBe(201);
  });
  afterAll(() => {
    h.close();
    rmSync(parent, { recursive: true, force: true });
  });

  test("the data directory and projects/ are 0700", () => {
    expect(mode(dir)).toBe("0700");
    expect(mode(join(dir, "projects"))).toBe("0700");
  });

  test("control.sqlite, each project file, their -wal and -shm, and secret.key are 0600", () => {
    const projectFiles = readdirSync(join(dir, "projects")).sort();
    expect(projectFiles).toHaveLength(3);
    expect(projectFiles.map((f) => f.replace(/^[^.]+/, "<id>"))).toEqual(["<id>.sqlite", "<id>.sqlite-shm", "<id>.sqlite-wal"]);
    const files = [
      ...["control.sqlite", "control.sqlite-wal", "control.sqlite-shm", "secret.key"].map((f) => join(dir, f)),
      ...projectFiles.map((f) => join(dir, "projects", f)),
    ];
    expect(Object.fromEntries(files.map((f) => [f, mode(f)]))).toEqual(Object.fromEntries(files.map((f) => [f, "0600"])));
    expect(wideModes(dir)).toEqual([]);
  });
});

describe("the start warns about wider modes", () => {
  const data = tempDataDir();
  afterAll(() => data.remove());

  test("one warn line per path, naming it and its mode; none when all is private", async () => {
    const env = { CAPA_DATA_DIR: data.dir, PORT: "0", CAPA_LOG_LEVEL: "warn", CAPA_DEMO: "0" };
    let server = startServer(env);
    await server.listening();
    expect(await server.stop()).toBe(0);
    const warns = (out: string) =>
      out
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l))
        .filter((l) => l.msg.startsWith("data directory path"))
        .map(({ level, path, mode }) => ({ level, path, mode }));
    expect(warns(server.output())).toEqual([]);
    chmodSync(data.dir, 0o755);
    chmodSync(join(data.dir, "control.sqlite"), 0o644);
    server = startServer(env);
    await server.listening();
    expect(await server.stop()).toBe(0);
    expect(warns(server.output())).toEqual([
      { level: "warn", path: data.dir, mode: "0755" },
      { level: "warn", path: join(data.dir, "control.sqlite"), mode: "0644" },
      // SQLite gives the -wal and -shm it makes the mode of their database file.
      { level: "warn", path: join(data.dir, "control.sqlite-shm"), mode: "0644" },
      { level: "warn", path: join(data.dir, "control.sqlite-wal"), mode: "0644" },
    ]);
  });
});
