// The media settings: defaults, overrides, and a one-line ConfigError for each bad value.
import { describe, expect, test } from "bun:test";
import { MEDIA_DEFAULTS, readMediaSettings } from "../../src/domain/media/settings.ts";

describe("readMediaSettings", () => {
  test("defaults: local store, 100 MiB, 100 megapixels, 1 GiB of variants, 2 new variants a second (burst 20)", () => {
    expect(readMediaSettings({})).toEqual({
      store: "local",
      s3Endpoint: null,
      s3Region: null,
      maxBytes: 104857600,
      maxPixels: 100000000,
      variantCacheBytes: 1073741824,
      perClient: { rate: 2, burst: 20 },
    });
    expect(readMediaSettings({})).toEqual(MEDIA_DEFAULTS);
  });

  test("every setting overridden", () => {
    expect(
      readMediaSettings({
        CAPA_MEDIA_STORE: "s3://capa-media/site",
        CAPA_MEDIA_S3_ENDPOINT: "http://127.0.0.1:9000",
        CAPA_MEDIA_S3_REGION: "auto",
        CAPA_MEDIA_MAX_BYTES: "2048",
        CAPA_MEDIA_MAX_PIXELS: "1000",
        CAPA_MEDIA_VARIANT_CACHE_BYTES: "0",
        CAPA_MEDIA_NEW_VARIANTS_PER_SECOND: "5",
        CAPA_MEDIA_NEW_VARIANT_BURST: "50",
      }),
    ).toEqual({
      store: "s3://capa-media/site",
      s3Endpoint: "http://127.0.0.1:9000",
      s3Region: "auto",
      maxBytes: 2048,
      maxPixels: 1000,
      variantCacheBytes: 0,
      perClient: { rate: 5, burst: 50 },
    });
  });

  const bad: [Record<string, string>, string][] = [
    [{ CAPA_MEDIA_STORE: "ftp://x" }, 'CAPA_MEDIA_STORE must be local or s3://bucket/prefix, got "ftp://x"'],
    [{ CAPA_MEDIA_S3_ENDPOINT: "minio:9000" }, 'CAPA_MEDIA_S3_ENDPOINT must be an http(s):// URL, got "minio:9000"'],
    [{ CAPA_MEDIA_MAX_BYTES: "100MB" }, 'CAPA_MEDIA_MAX_BYTES must be a whole number, got "100MB"'],
    [{ CAPA_MEDIA_MAX_BYTES: "0" }, "CAPA_MEDIA_MAX_BYTES must be between 1 and 1099511627776, got 0"],
    [{ CAPA_MEDIA_NEW_VARIANT_BURST: "0" }, "CAPA_MEDIA_NEW_VARIANT_BURST must be between 1 and 100000, got 0"],
  ];
  for (const [env, message] of bad) {
    test(`refused: ${message}`, () => {
      expect(() => readMediaSettings(env)).toThrow(message);
    });
  }
});
