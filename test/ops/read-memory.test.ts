// Memory bounds of the read path (issue 16 item 4), each set through configuration
// (docs/configuration.md): SQLite's page cache and memory map per connection, the key cache, built
// GraphQL schemas and the render cache.
import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { allModels } from "../../src/domain/models/catalog.ts";
import { SchemaCache } from "../../src/graphql/schema-cache.ts";
import { startApp, type Harness } from "../harness.ts";
import { seedBig } from "../../scripts/bench/seed.ts";

let h: Harness;
afterEach(() => h?.close());

describe("memory settings", () => {
  test("defaults", () => {
    const c = loadConfig({});
    expect([c.sqliteCacheKiB, c.sqliteMmapBytes, c.readWorkerOpenProjects]).toEqual([256, 0, 64]);
    expect([c.renderCacheBytes, c.graphqlSchemas, c.keyCacheMax, c.readInline]).toEqual([32 * 1024 * 1024, 32, 5000, true]);
  });

  test("values are read and bad ones refused", () => {
    const c = loadConfig({
      CAPA_SQLITE_CACHE_KB: "512",
      CAPA_SQLITE_MMAP_MB: "8",
      CAPA_READ_WORKER_OPEN_PROJECTS: "4",
      CAPA_RENDER_CACHE_MB: "2",
      CAPA_GRAPHQL_SCHEMAS: "3",
      CAPA_KEY_CACHE: "100",
      CAPA_READ_INLINE: "off",
    });
    expect([c.sqliteCacheKiB, c.sqliteMmapBytes, c.readWorkerOpenProjects]).toEqual([512, 8 * 1024 * 1024, 4]);
    expect([c.renderCacheBytes, c.graphqlSchemas, c.keyCacheMax, c.readInline]).toEqual([2 * 1024 * 1024, 3, 100, false]);
    expect(() => loadConfig({ CAPA_SQLITE_CACHE_KB: "32" })).toThrow(new ConfigError("CAPA_SQLITE_CACHE_KB must be between 64 and 1048576, got 32"));
    expect(() => loadConfig({ CAPA_SQLITE_MMAP_MB: "-1" })).toThrow(new ConfigError('CAPA_SQLITE_MMAP_MB must be a whole number, got "-1"'));
    expect(() => loadConfig({ CAPA_READ_WORKER_OPEN_PROJECTS: "0" })).toThrow(
      new ConfigError("CAPA_READ_WORKER_OPEN_PROJECTS must be between 1 and 100000, got 0"),
    );
    expect(() => loadConfig({ CAPA_RENDER_CACHE_MB: "0" })).toThrow(new ConfigError("CAPA_RENDER_CACHE_MB must be between 1 and 65536, got 0"));
    expect(() => loadConfig({ CAPA_GRAPHQL_SCHEMAS: "x" })).toThrow(new ConfigError('CAPA_GRAPHQL_SCHEMAS must be a whole number, got "x"'));
    expect(() => loadConfig({ CAPA_KEY_CACHE: "0" })).toThrow(new ConfigError("CAPA_KEY_CACHE must be between 1 and 1000000, got 0"));
    expect(() => loadConfig({ CAPA_READ_INLINE: "maybe" })).toThrow(new ConfigError('CAPA_READ_INLINE must be one of 1, 0, true, false, on, off; got "maybe"'));
  });
});

describe("bounds in a running app", () => {
  test("a project connection has the default page cache, no memory map, and bun:sqlite's own bound on cached statements", () => {
    h = startApp();
    const seed = seedBig(h.capa, 3, 1);
    const ph = h.capa.services.projects.get(seed.projectId);
    expect(ph.sqlite.query("PRAGMA cache_size").get()).toEqual({ cache_size: -256 });
    expect(ph.sqlite.query("PRAGMA mmap_size").get()).toEqual({ mmap_size: 0 });
    // The read path prepares through Database.query, which keeps at most this many statements per connection.
    expect(Database.MAX_QUERY_CACHE_SIZE).toBe(20);
  });

  test("the page cache and memory map follow the settings", () => {
    h = startApp({ sqliteCacheKiB: 512, sqliteMmapBytes: 1024 * 1024 });
    const seed = seedBig(h.capa, 1, 1);
    const ph = h.capa.services.projects.get(seed.projectId);
    expect(ph.sqlite.query("PRAGMA cache_size").get()).toEqual({ cache_size: -512 });
    expect(ph.sqlite.query("PRAGMA mmap_size").get()).toEqual({ mmap_size: 1024 * 1024 });
  });

  test("the key cache keeps at most CAPA_KEY_CACHE lookups, unknown secrets included", async () => {
    h = startApp({ keyCacheMax: 2 });
    for (const n of [1, 2, 3]) {
      const r = await h.json("GET", "/api/me", { headers: { "x-api-key": `svc_test_unknown${n}` } });
      expect(r.status).toBe(401);
    }
    expect(h.capa.keys.cached).toBe(2);
  });

  test("the GraphQL schema cache keeps at most its bound and rebuilds an evicted schema", () => {
    h = startApp();
    const seed = seedBig(h.capa, 1, 1);
    const ph = h.capa.services.projects.get(seed.projectId);
    const [author, post] = allModels(ph).list.map((m) => m.id);
    const cache = new SchemaCache(2);
    cache.get(ph, () => true);
    cache.get(ph, (id) => id === author);
    cache.get(ph, (id) => id === post);
    expect([cache.size, cache.builds]).toEqual([2, 3]);
    // The newest two are kept; the first, evicted, is built again.
    cache.get(ph, (id) => id === post);
    expect([cache.size, cache.builds]).toEqual([2, 3]);
    cache.get(ph, () => true);
    expect([cache.size, cache.builds]).toEqual([2, 4]);
  });

  test("the render cache holds no more bytes than CAPA_RENDER_CACHE_MB", async () => {
    h = startApp({ renderCacheBytes: 16 * 1024 });
    const seed = seedBig(h.capa, 40, 2);
    const headers = { "x-api-key": seed.prodKey };
    for (const limit of [10, 11, 12, 13, 14, 15]) expect((await h.req("GET", `/api/entries/post?limit=${limit}`, { headers })).status).toBe(200);
    expect(h.capa.renderCache.bytes).toBeGreaterThan(0);
    expect(h.capa.renderCache.bytes).toBeLessThanOrEqual(16 * 1024);
  });
});
