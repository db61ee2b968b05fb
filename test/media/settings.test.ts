// The media settings: defaults, overrides, and a one-line ConfigError for each bad value.
import { describe, expect, test } from "bun:test";
import { MEDIA_DEFAULTS, readMediaSettings } from "../../src/domain/media/settings.ts";

const GIB = 1024 ** 3;
/** A 2-core machine with 8 GiB. */
const machine = { memoryBytes: 8 * GIB, cpus: 2 };

describe("readMediaSettings", () => {
  test("defaults: local store, 100 MiB, 100 megapixels, 1 GiB of variants, 2 tokens a second (burst 20), a quarter of memory to decode", () => {
    expect(readMediaSettings({}, machine)).toEqual({
      store: "local",
      s3Endpoint: null,
      s3Region: null,
      maxBytes: 104857600,
      maxPixels: 100000000,
      variantCacheBytes: 1073741824,
      perClient: { rate: 2, burst: 20 },
      decodeBudget: 2 * GIB,
      renderSlots: 2,
    });
    expect(readMediaSettings({}, machine)).toEqual({ ...MEDIA_DEFAULTS, decodeBudget: 2 * GIB, renderSlots: 2 });
  });

  test("the decode budget is sized from the machine: a quarter of its memory, from 256 MiB to 2 GiB; slots are the cores, at least 2", () => {
    const MIB = 1024 * 1024;
    const sized = (memoryBytes: number, cpus = 2) => {
      const m = readMediaSettings({}, { memoryBytes, cpus });
      return [m.decodeBudget / MIB, m.renderSlots];
    };
    expect(sized(512 * MIB)).toEqual([256, 2]);
    expect(sized(1 * GIB)).toEqual([256, 2]);
    expect(sized(3 * GIB, 1)).toEqual([768, 2]);
    expect(sized(64 * GIB, 16)).toEqual([2048, 16]);
  });

  test("every setting overridden", () => {
    expect(
      readMediaSettings(
        {
          CAPA_MEDIA_STORE: "s3://capa-media/site",
          CAPA_MEDIA_S3_ENDPOINT: "http://127.0.0.1:9000",
          CAPA_MEDIA_S3_REGION: "auto",
          CAPA_MEDIA_MAX_BYTES: "2048",
          CAPA_MEDIA_MAX_PIXELS: "1000",
          CAPA_MEDIA_VARIANT_CACHE_BYTES: "0",
          CAPA_MEDIA_NEW_VARIANTS_PER_SECOND: "5",
          CAPA_MEDIA_NEW_VARIANT_BURST: "50",
          CAPA_MEDIA_DECODE_BUDGET: "536870912",
        },
        machine,
      ),
    ).toEqual({
      store: "s3://capa-media/site",
      s3Endpoint: "http://127.0.0.1:9000",
      s3Region: "auto",
      maxBytes: 2048,
      maxPixels: 1000,
      variantCacheBytes: 0,
      perClient: { rate: 5, burst: 50 },
      decodeBudget: 536870912,
      renderSlots: 2,
    });
  });

  const bad: [Record<string, string>, string][] = [
    [{ CAPA_MEDIA_STORE: "ftp://x" }, 'CAPA_MEDIA_STORE must be local or s3://bucket/prefix, got "ftp://x"'],
    [{ CAPA_MEDIA_S3_ENDPOINT: "minio:9000" }, 'CAPA_MEDIA_S3_ENDPOINT must be an http(s):// URL, got "minio:9000"'],
    [{ CAPA_MEDIA_MAX_BYTES: "100MB" }, 'CAPA_MEDIA_MAX_BYTES must be a whole number, got "100MB"'],
    [{ CAPA_MEDIA_MAX_BYTES: "0" }, "CAPA_MEDIA_MAX_BYTES must be between 1 and 1099511627776, got 0"],
    [{ CAPA_MEDIA_NEW_VARIANT_BURST: "0" }, "CAPA_MEDIA_NEW_VARIANT_BURST must be between 1 and 100000, got 0"],
    [{ CAPA_MEDIA_DECODE_BUDGET: "1G" }, 'CAPA_MEDIA_DECODE_BUDGET must be a whole number, got "1G"'],
    [{ CAPA_MEDIA_DECODE_BUDGET: "1000000" }, "CAPA_MEDIA_DECODE_BUDGET must be between 134217728 and 1099511627776, got 1000000"],
  ];
  for (const [env, message] of bad) {
    test(`refused: ${message}`, () => {
      expect(() => readMediaSettings(env, machine)).toThrow(message);
    });
  }
});
