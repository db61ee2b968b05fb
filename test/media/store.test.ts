// The media store contract, run against both drivers: a local folder, and Bun's S3 client talking
// to a real S3-compatible server (s3rver, started here on a random port).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import S3rver from "s3rver";
import { type MediaStore, mediaStorageKey, openLocalStore, openMediaStore, parseS3Url } from "../../src/infra/media-store/index.ts";
import { tempDir } from "./fixtures.ts";

const bytes = (n: number, seed = 1) => new Uint8Array(n).map((_, i) => (i * 31 + seed) % 256);

async function read(body: Blob | ReadableStream<Uint8Array> | null): Promise<Uint8Array> {
  if (body === null) throw new Error("nothing stored");
  return new Uint8Array(await new Response(body).arrayBuffer());
}

function contract(name: string, open: () => Promise<{ store: MediaStore; dir: string }>) {
  describe(`${name} store`, () => {
    let store: MediaStore;
    let dir: string;
    beforeAll(async () => {
      ({ store, dir } = await open());
    });

    test("put from a file, then get, head and exists", async () => {
      const src = join(dir, "src.bin");
      const data = bytes(300_000);
      await Bun.write(src, data);
      await store.put("p1/m1", { path: src });
      expect(await read(await store.get("p1/m1"))).toEqual(data);
      expect(await store.head("p1/m1")).toEqual({ size: 300_000 });
      expect(await store.exists("p1/m1")).toBe(true);
      // The source stays the caller's: removing it leaves the stored copy intact.
      rmSync(src);
      expect(await read(await store.get("p1/m1"))).toEqual(data);
    });

    test("get with a byte range returns exactly those bytes (inclusive end)", async () => {
      const data = bytes(300_000);
      expect(await read(await store.get("p1/m1", { start: 0, end: 0 }))).toEqual(data.subarray(0, 1));
      expect(await read(await store.get("p1/m1", { start: 1000, end: 1999 }))).toEqual(data.subarray(1000, 2000));
      expect(await read(await store.get("p1/m1", { start: 299_990, end: 299_999 }))).toEqual(data.subarray(299_990));
    });

    test("put from bytes, a Blob and a stream", async () => {
      // Distinct keys: media keys are written once (id-addressed), and s3rver answers a PUT that
      // overwrites a key before a read sees the new bytes (real S3 reads its writes at once).
      await store.put("p1/m2", bytes(10, 2));
      expect(await read(await store.get("p1/m2"))).toEqual(bytes(10, 2));
      await store.put("p1/m3", new Blob([bytes(20, 3)]));
      expect(await read(await store.get("p1/m3"))).toEqual(bytes(20, 3));
      await store.put("p1/m4", new Blob([bytes(70_000, 4)]).stream());
      expect(await read(await store.get("p1/m4"))).toEqual(bytes(70_000, 4));
      expect(await store.head("p1/m4")).toEqual({ size: 70_000 });
    });

    test("a missing key: get and head are null, exists false, delete is no error", async () => {
      expect(await store.get("p1/none")).toBeNull();
      expect(await store.get("p1/none", { start: 0, end: 9 })).toBeNull();
      expect(await store.head("p1/none")).toBeNull();
      expect(await store.exists("p1/none")).toBe(false);
      await store.delete("p1/none");
    });

    test("delete removes the bytes", async () => {
      await store.put("p2/m3", bytes(5));
      await store.delete("p2/m3");
      expect(await store.exists("p2/m3")).toBe(false);
      expect(await store.get("p2/m3")).toBeNull();
    });

    for (const key of ["../escape", "p1/../../etc/passwd", "/abs", "p1//m", "p1/.hidden", "p1/m\u0000", ""]) {
      test(`the key ${JSON.stringify(key)} is refused before any I/O`, async () => {
        await expect(store.put(key, bytes(1))).rejects.toThrow("Not a valid media store key");
        await expect(store.get(key)).rejects.toThrow("Not a valid media store key");
        await expect(store.head(key)).rejects.toThrow("Not a valid media store key");
        await expect(store.delete(key)).rejects.toThrow("Not a valid media store key");
      });
    }
  });
}

let local: ReturnType<typeof tempDir>;
contract("local", async () => {
  local = tempDir();
  return { store: await openLocalStore(join(local.dir, "media")), dir: local.dir };
});

let s3: S3rver;
let s3dir: ReturnType<typeof tempDir>;
contract("s3", async () => {
  s3dir = tempDir();
  s3 = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: join(s3dir.dir, "s3"), configureBuckets: [{ name: "capa-media", configs: [] }] });
  const { port } = (await s3.run()) as unknown as { port: number };
  const store = await openMediaStore({
    store: "s3://capa-media/site/files",
    dataDir: s3dir.dir,
    s3Endpoint: `http://127.0.0.1:${port}`,
    s3AccessKeyId: "S3RVER",
    s3SecretAccessKey: "S3RVER",
  });
  return { store, dir: s3dir.dir };
});

afterAll(async () => {
  await s3?.close();
  s3dir?.remove();
  local?.remove();
});

describe("the local store on disk", () => {
  test("files sit at <root>/<key>, the temp folder is left empty, and an emptied project folder goes", async () => {
    const t = tempDir();
    const store = await openLocalStore(join(t.dir, "media"));
    await store.put("proj/abc", bytes(100));
    expect(readdirSync(join(t.dir, "media", "proj"))).toEqual(["abc"]);
    expect(readdirSync(join(t.dir, "media", ".tmp"))).toEqual([]);
    expect(store.localPath!("proj/abc")).toBe(join(t.dir, "media", "proj", "abc"));
    await expect(store.put("proj/def", { path: join(t.dir, "missing") })).rejects.toThrow();
    expect(readdirSync(join(t.dir, "media", ".tmp"))).toEqual([]);
    await store.delete("proj/abc");
    expect(readdirSync(join(t.dir, "media")).sort()).toEqual([".tmp"]);
    t.remove();
  });
});

describe("the local store at open", () => {
  test("a second put replaces the bytes whole", async () => {
    const t = tempDir();
    const store = await openLocalStore(join(t.dir, "media"));
    await store.put("proj/x", bytes(10, 1));
    await store.put("proj/x", new Blob([bytes(70_000, 2)]).stream());
    expect(await read(await store.get("proj/x"))).toEqual(bytes(70_000, 2));
    t.remove();
  });

  test("folders are 0700 and files 0600 whatever the umask, as everything in the data directory", async () => {
    const t = tempDir();
    const src = join(t.dir, "open.bin");
    await Bun.write(src, bytes(10));
    chmodSync(src, 0o644);
    const store = await openLocalStore(join(t.dir, "media"));
    await store.put("proj/a", { path: src });
    await store.put("proj/b", bytes(10));
    const mode = (p: string) => statSync(join(t.dir, "media", p)).mode & 0o777;
    expect([mode("."), mode(".tmp"), mode("proj"), mode("proj/a"), mode("proj/b")]).toEqual([0o700, 0o700, 0o700, 0o600, 0o600]);
    t.remove();
  });

  test("temp files a crash left behind are removed; stored files stay", async () => {
    const t = tempDir();
    const first = await openLocalStore(join(t.dir, "media"));
    await first.put("proj/kept", bytes(10));
    await Bun.write(join(t.dir, "media", ".tmp", "half-written"), bytes(5));
    const again = await openLocalStore(join(t.dir, "media"));
    expect(readdirSync(join(t.dir, "media", ".tmp"))).toEqual([]);
    expect(await again.head("proj/kept")).toEqual({ size: 10 });
    t.remove();
  });
});

describe("keys and settings", () => {
  test("mediaStorageKey joins two plain ids and refuses anything path-like", () => {
    expect(mediaStorageKey("0190c7a0-0000-7000-8000-000000000001", "0190c7a0-0000-7000-8000-000000000002")).toBe(
      "0190c7a0-0000-7000-8000-000000000001/0190c7a0-0000-7000-8000-000000000002",
    );
    for (const bad of ["..", "../x", "a/b", "a.b", "", "a\\b", "%2e%2e"]) {
      expect(mediaStorageKey("proj", bad)).toBeNull();
      expect(mediaStorageKey(bad, "media")).toBeNull();
    }
  });

  test("parseS3Url reads bucket and prefix", () => {
    expect(parseS3Url("s3://capa-media")).toEqual({ bucket: "capa-media", prefix: "" });
    expect(parseS3Url("s3://capa-media/a/b/")).toEqual({ bucket: "capa-media", prefix: "a/b" });
    expect(parseS3Url("s3://Bad_Bucket/x")).toBeNull();
    expect(parseS3Url("https://capa-media/x")).toBeNull();
  });

  test("openMediaStore refuses a value that is neither local nor s3://", async () => {
    await expect(openMediaStore({ store: "ftp://x", dataDir: "/tmp" })).rejects.toThrow('CAPA_MEDIA_STORE must be local or s3://bucket/prefix, got "ftp://x"');
  });
});
