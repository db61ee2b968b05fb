// Variants: made once under single-flight, kept in a bounded LRU disk cache, rendered under a
// CPU-sized semaphore, and new ones limited per client while cached ones never are.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { AppError, v2Body } from "../../src/errors.ts";
import { parseTransform, resolveTransform } from "../../src/domain/media/transform.ts";
import type { ServableMedia } from "../../src/domain/media/types.ts";
import { VariantService } from "../../src/domain/media/variants.ts";
import { ManualClock } from "../../src/infra/clock.ts";
import { openLocalStore } from "../../src/infra/media-store/local.ts";
import type { MediaStore } from "../../src/infra/media-store/types.ts";
import { VariantCache } from "../../src/infra/variant-cache.ts";
import sharp from "sharp";
import { jpeg1600, tempDir } from "./fixtures.ts";

let tmp: ReturnType<typeof tempDir>;
let store: MediaStore;
let media: ServableMedia;
/** A 5,000 x 4,000 PNG (20 megapixels: a large job). */
let large: ServableMedia;
beforeAll(async () => {
  tmp = tempDir();
  store = await openLocalStore(join(tmp.dir, "media"));
  const photo = await jpeg1600(800, 533);
  await store.put("proj/photo", photo);
  media = {
    id: "photo",
    filename: "photo.jpg",
    kind: "image",
    mimeType: "image/jpeg",
    size: photo.byteLength,
    width: 800,
    height: 533,
    checksum: new Bun.CryptoHasher("sha256").update(photo).digest("hex"),
    focalPoint: null,
    storageKey: "proj/photo",
  };
  const png = await sharp({ create: { width: 5000, height: 4000, channels: 3, background: "#406080" } })
    .png()
    .toBuffer();
  await store.put("proj/large", png);
  large = {
    ...media,
    id: "large",
    filename: "large.png",
    mimeType: "image/png",
    size: png.byteLength,
    width: 5000,
    height: 4000,
    checksum: new Bun.CryptoHasher("sha256").update(png).digest("hex"),
    storageKey: "proj/large",
  };
});
afterAll(() => tmp.remove());

const t = (q: string) => resolveTransform(parseTransform(new URLSearchParams(q))!, null, "image/jpeg");

async function refusal(p: () => Promise<unknown>): Promise<AppError> {
  try {
    await p();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("VariantService", () => {
  test("50 concurrent requests for the same new variant cause exactly one render", async () => {
    const cache = await VariantCache.open(join(tmp.dir, "v-flight"), 50_000_000);
    const svc = new VariantService({ cache, clock: new ManualClock(0), maxPixels: 1e8 });
    const all = await Promise.all(Array.from({ length: 50 }, () => svc.get(media, store, t("w=200&fm=webp"), "10.0.0.1")));
    expect(svc.renders).toBe(1);
    expect(new Set(all.map((v) => ("path" in v ? v.path : "bytes"))).size).toBe(1);
    // Asked again later, the variant comes from the cache: still one render.
    await svc.get(media, store, t("w=200&fm=webp"), "10.0.0.2");
    expect(svc.renders).toBe(1);
    expect(cache.size).toBe(1);
  });

  test("a burst of new variants from one client answers 429; cached variants never are limited", async () => {
    const clock = new ManualClock(0);
    const cache = await VariantCache.open(join(tmp.dir, "v-limit"), 50_000_000);
    const svc = new VariantService({ cache, clock, maxPixels: 1e8, perClient: { rate: 1, burst: 2 } });
    await svc.get(media, store, t("w=101"), "c1");
    await svc.get(media, store, t("w=102"), "c1");
    const err = await refusal(() => svc.get(media, store, t("w=103"), "c1"));
    expect(err.status).toBe(429);
    expect(err.headers).toEqual({ "retry-after": "1" });
    expect(v2Body(err)).toEqual({ error: "Too many new image variants from this client; retry in 1 s.", code: "transform_rate_limited" });
    // The variants made already are served as often as asked, limit or not.
    for (let i = 0; i < 10; i++) await svc.get(media, store, t("w=101"), "c1");
    // Another client is not affected, and after a second the first may make one more.
    await svc.get(media, store, t("w=104"), "c2");
    clock.advance(1000);
    await svc.get(media, store, t("w=103"), "c1");
    expect(svc.renders).toBe(4);
  });

  test("a new variant is charged by its source's pixels: one token per 12 megapixels, so a 100-megapixel source costs 9", async () => {
    const clock = new ManualClock(0);
    const cache = await VariantCache.open(join(tmp.dir, "v-cost"), 50_000_000);
    const svc = new VariantService({ cache, clock, maxPixels: 1e8 });
    // The record says 10,000 x 10,000 (the bytes are the small photo: the charge reads the record).
    const huge = { ...media, id: "huge", width: 10_000, height: 10_000 };
    await svc.get(huge, store, t("w=121"), "c1");
    await svc.get(huge, store, t("w=122"), "c1");
    // 20 - 18 = 2 tokens left: a third costs 9, so 7 more are needed at 2 a second.
    const err = await refusal(() => svc.get(huge, store, t("w=123"), "c1"));
    expect(err.headers).toEqual({ "retry-after": "4" });
    expect(v2Body(err)).toEqual({ error: "Too many new image variants from this client; retry in 4 s.", code: "transform_rate_limited" });
    // A small photo's variant still fits in what is left.
    await svc.get(media, store, t("w=124"), "c1");
    clock.advance(4000);
    await svc.get(huge, store, t("w=123"), "c1");
    expect(svc.renders).toBe(4);
    expect([svc.tokensOf(huge), svc.tokensOf(media)]).toEqual([9, 1]);
  });

  test("a small variant for a second client never waits behind another client's flood of large ones", async () => {
    const cache = await VariantCache.open(join(tmp.dir, "v-fair"), 50_000_000);
    const svc = new VariantService({ cache, clock: new ManualClock(0), maxPixels: 1e8, perClient: { rate: 100, burst: 100 } });
    const done: string[] = [];
    const flood: Promise<unknown>[] = [];
    const refused: unknown[] = [];
    for (let w = 301; w <= 306; w++) {
      try {
        flood.push(svc.get(large, store, t(`w=${w}`), "flood").then(() => done.push(`flood w=${w}`)));
      } catch (err) {
        refused.push(v2Body(err as AppError));
      }
    }
    const small = svc.get(media, store, t("w=100"), "other").then(() => done.push("other"));
    await Promise.all([...flood, small]);
    // The other client's render started beside the flood's first (large renders take one slot of
    // two) and ended first; the flood's sixth asked past its share of the queue (4 waiting).
    expect(done[0]).toBe("other");
    expect(refused).toEqual([{ error: "This client already has 4 new image variants waiting.", code: "transform_rate_limited" }]);
    expect(done.slice(1)).toEqual(["flood w=301", "flood w=302", "flood w=303", "flood w=304", "flood w=305"]);
  });

  test("the client buckets are bounded: the least recently seen client is forgotten and starts full", async () => {
    const cache = await VariantCache.open(join(tmp.dir, "v-clients"), 50_000_000);
    const svc = new VariantService({ cache, clock: new ManualClock(0), maxPixels: 1e8, perClient: { rate: 1, burst: 1 }, maxClients: 2 });
    await svc.get(media, store, t("w=111"), "a");
    expect((await refusal(() => svc.get(media, store, t("w=112"), "a"))).code).toBe("transform_rate_limited");
    await svc.get(media, store, t("w=113"), "b");
    await svc.get(media, store, t("w=114"), "c");
    // "a" was forgotten when "c" arrived; its bucket is full again.
    await svc.get(media, store, t("w=112"), "a");
    expect(svc.renders).toBe(4);
  });

  test("renders past the queue's bound answer 429 at once", async () => {
    const cache = await VariantCache.open(join(tmp.dir, "v-queue"), 50_000_000);
    const svc = new VariantService({ cache, clock: new ManualClock(0), maxPixels: 1e8, concurrency: 2, maxQueue: 1 });
    const running = [svc.get(media, store, t("w=201"), "a"), svc.get(media, store, t("w=202"), "b")];
    const waiting = svc.get(media, store, t("w=203"), "c");
    const err = await refusal(() => svc.get(media, store, t("w=204"), "d"));
    expect(err.status).toBe(429);
    expect(err.headers).toEqual({ "retry-after": "1" });
    expect(v2Body(err)).toEqual({ error: "The server is busy making other image variants.", code: "transform_rate_limited" });
    await Promise.all([...running, waiting]);
    expect(svc.renders).toBe(3);
  });

  test("the queue has a slot per core, at least 2", async () => {
    const svc = new VariantService({ cache: await VariantCache.open(join(tmp.dir, "v-cpu"), 1000), clock: new ManualClock(0), maxPixels: 1e8 });
    expect(svc.queue.slots).toBe(Math.max(2, navigator.hardwareConcurrency));
  });

  test("a variant larger than the whole cache is sent from memory and not kept", async () => {
    const cache = await VariantCache.open(join(tmp.dir, "v-tiny"), 100);
    const svc = new VariantService({ cache, clock: new ManualClock(0), maxPixels: 1e8 });
    const v = await svc.get(media, store, t("w=300"), "x");
    expect("data" in v).toBe(true);
    expect(cache.size).toBe(0);
  });

  test("the original missing from the store: 404 not_found", async () => {
    const cache = await VariantCache.open(join(tmp.dir, "v-missing"), 50_000_000);
    const svc = new VariantService({ cache, clock: new ManualClock(0), maxPixels: 1e8 });
    const err = await refusal(() => svc.get({ ...media, id: "gone", storageKey: "proj/gone" }, store, t("w=10"), "x"));
    expect(v2Body(err)).toEqual({ error: "The file's bytes are missing from the media store.", code: "not_found" });
  });
});

describe("VariantCache", () => {
  const bytes = (n: number) => new Uint8Array(n).fill(1);

  test("bounded in bytes, evicting the least recently used, files and all", async () => {
    const dir = join(tmp.dir, "lru");
    const cache = await VariantCache.open(dir, 250);
    const a = (await cache.put("m1/a", bytes(100)))!;
    await cache.put("m1/b", bytes(100));
    await cache.put("m2/c", bytes(40));
    expect(cache.bytes).toBe(240);
    cache.get("m1/a");
    await cache.put("m2/d", bytes(100));
    // b was the least recently used: gone from the index and from disk.
    expect(cache.get("m1/b")).toBeUndefined();
    expect(cache.get("m1/a")).toEqual(a);
    expect(cache.bytes).toBe(240);
    expect(readdirSync(join(dir, "m1"))).toEqual(["a"]);
    expect([statSync(join(dir, "m1")).mode & 0o777, statSync(a.path).mode & 0o777]).toEqual([0o700, 0o600]);
  });

  test("reopened, the cache finds the variants on disk; dropMedia deletes one file's variants", async () => {
    const dir = join(tmp.dir, "reopen");
    const first = await VariantCache.open(dir, 10_000);
    await first.put("m1/x", bytes(10));
    await first.put("m2/y", bytes(20));
    const again = await VariantCache.open(dir, 10_000);
    expect([again.size, again.bytes]).toEqual([2, 30]);
    expect(again.get("m2/y")).toEqual({ path: join(dir, "m2", "y"), size: 20 });
    await again.dropMedia("m2");
    expect(again.get("m2/y")).toBeUndefined();
    expect(existsSync(join(dir, "m2"))).toBe(false);
    expect(again.bytes).toBe(10);
  });
});
