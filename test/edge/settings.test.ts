// CAPA_EDGE_PURGE, CAPA_EDGE_TOKEN, CAPA_EDGE_TTL and CAPA_EDGE_ALLOW_PRIVATE (docs/configuration.md,
// docs/scaling.md): the three vendors' grammar, the defaults with and without purging, and a
// one-line ConfigError naming the variable for every bad value, never repeating a token or a
// password. test/startup.test.ts checks that the server refuses to start on them.
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { readEdgeSettings } from "../../src/domain/edge/settings.ts";

const TOKEN = "edge-token-0123456789";

describe("readEdgeSettings", () => {
  test("nothing set: no purging, and the edge keeps answers no longer than browsers (60 s)", () => {
    expect(readEdgeSettings({})).toEqual({ vendor: null, targets: [], token: null, ttlSeconds: 60, allowPrivate: false });
    expect(loadConfig({}).edge).toEqual(readEdgeSettings({}));
    expect(readEdgeSettings({ CAPA_EDGE_TTL: "300" }).ttlSeconds).toBe(300);
  });

  test("varnish: one target per URL (duplicates once), a day by default, the token kept", () => {
    expect(
      readEdgeSettings({
        CAPA_EDGE_PURGE: "varnish:http://cache-1.example.com:6081, https://cache-2.example.com/purge,http://cache-1.example.com:6081/",
        CAPA_EDGE_TOKEN: TOKEN,
      }),
    ).toEqual({
      vendor: "varnish",
      targets: [
        { id: "varnish:http://cache-1.example.com:6081/", vendor: "varnish", address: "http://cache-1.example.com:6081/" },
        { id: "varnish:https://cache-2.example.com/purge", vendor: "varnish", address: "https://cache-2.example.com/purge" },
      ],
      token: TOKEN,
      ttlSeconds: 86400,
      allowPrivate: false,
    });
  });

  test("varnish on this machine or a private network with CAPA_EDGE_ALLOW_PRIVATE=1", () => {
    const s = readEdgeSettings({
      CAPA_EDGE_PURGE: "varnish:http://127.0.0.1:6081,http://10.0.0.7:6081,http://localhost:6081,http://[::1]:6081",
      CAPA_EDGE_TOKEN: TOKEN,
      CAPA_EDGE_ALLOW_PRIVATE: "1",
      CAPA_EDGE_TTL: "3600",
    });
    expect(s.targets.map((t) => t.address)).toEqual(["http://127.0.0.1:6081/", "http://10.0.0.7:6081/", "http://localhost:6081/", "http://[::1]:6081/"]);
    expect([s.allowPrivate, s.ttlSeconds]).toEqual([true, 3600]);
  });

  test("fastly and cloudflare: one target each (a zone id lower-cased)", () => {
    expect(readEdgeSettings({ CAPA_EDGE_PURGE: "fastly:SU1Z0isxPaozGVKXdv0eY", CAPA_EDGE_TOKEN: TOKEN })).toEqual({
      vendor: "fastly",
      targets: [{ id: "fastly:SU1Z0isxPaozGVKXdv0eY", vendor: "fastly", address: "SU1Z0isxPaozGVKXdv0eY" }],
      token: TOKEN,
      ttlSeconds: 86400,
      allowPrivate: false,
    });
    expect(readEdgeSettings({ CAPA_EDGE_PURGE: " Cloudflare:023E105F4ECEF8AD9CA31A8372D0C353 ", CAPA_EDGE_TOKEN: TOKEN }).targets).toEqual([
      { id: "cloudflare:023e105f4ecef8ad9ca31a8372d0c353", vendor: "cloudflare", address: "023e105f4ecef8ad9ca31a8372d0c353" },
    ]);
  });

  const bad: [string, Record<string, string>, string][] = [
    [
      "no vendor",
      { CAPA_EDGE_PURGE: "http://cache.example.com", CAPA_EDGE_TOKEN: TOKEN },
      'CAPA_EDGE_PURGE names an unknown cache "http"; use varnish, fastly or cloudflare',
    ],
    [
      "malformed",
      { CAPA_EDGE_PURGE: "varnish", CAPA_EDGE_TOKEN: TOKEN },
      'CAPA_EDGE_PURGE must be varnish:<url>[,<url>...], fastly:<serviceId> or cloudflare:<zoneId>; got "varnish"',
    ],
    [
      "nothing after the colon",
      { CAPA_EDGE_PURGE: "fastly:", CAPA_EDGE_TOKEN: TOKEN },
      'CAPA_EDGE_PURGE must be varnish:<url>[,<url>...], fastly:<serviceId> or cloudflare:<zoneId>; got "fastly:"',
    ],
    [
      "an unknown vendor",
      { CAPA_EDGE_PURGE: "akamai:abc", CAPA_EDGE_TOKEN: TOKEN },
      'CAPA_EDGE_PURGE names an unknown cache "akamai"; use varnish, fastly or cloudflare',
    ],
    [
      "an empty URL in the list",
      { CAPA_EDGE_PURGE: "varnish:http://a.example.com,,http://b.example.com", CAPA_EDGE_TOKEN: TOKEN },
      "CAPA_EDGE_PURGE: the varnish list has an empty URL; write varnish:<url>[,<url>...], fastly:<serviceId> or cloudflare:<zoneId>",
    ],
    ["not a URL", { CAPA_EDGE_PURGE: "varnish:cache:6081", CAPA_EDGE_TOKEN: TOKEN }, 'CAPA_EDGE_PURGE: "cache:6081" is not an http:// or https:// URL'],
    [
      "another scheme",
      { CAPA_EDGE_PURGE: "varnish:ftp://cache.example.com", CAPA_EDGE_TOKEN: TOKEN },
      'CAPA_EDGE_PURGE: "ftp://cache.example.com" is not an http:// or https:// URL',
    ],
    [
      "a URL with credentials (the password is not repeated)",
      { CAPA_EDGE_PURGE: "varnish:http://admin:hunter2@cache.example.com:6081", CAPA_EDGE_TOKEN: TOKEN },
      'CAPA_EDGE_PURGE: a Varnish URL holds no user or password (the token goes in CAPA_EDGE_TOKEN); got "http://***@cache.example.com:6081"',
    ],
    [
      "a loopback address",
      { CAPA_EDGE_PURGE: "varnish:http://127.0.0.1:6081", CAPA_EDGE_TOKEN: TOKEN },
      "CAPA_EDGE_PURGE: 127.0.0.1 is a loopback address; set CAPA_EDGE_ALLOW_PRIVATE=1 to purge a Varnish on this machine or a private network",
    ],
    [
      "a private address",
      { CAPA_EDGE_PURGE: "varnish:http://cache.example.com,http://10.0.0.7:6081", CAPA_EDGE_TOKEN: TOKEN },
      "CAPA_EDGE_PURGE: 10.0.0.7 is a private address; set CAPA_EDGE_ALLOW_PRIVATE=1 to purge a Varnish on this machine or a private network",
    ],
    [
      "localhost",
      { CAPA_EDGE_PURGE: "varnish:http://localhost:6081", CAPA_EDGE_TOKEN: TOKEN, CAPA_EDGE_ALLOW_PRIVATE: "0" },
      "CAPA_EDGE_PURGE: localhost is a loopback name; set CAPA_EDGE_ALLOW_PRIVATE=1 to purge a Varnish on this machine or a private network",
    ],
    [
      "a bad Fastly service id",
      { CAPA_EDGE_PURGE: "fastly:abc/def", CAPA_EDGE_TOKEN: TOKEN },
      'CAPA_EDGE_PURGE: a Fastly service id is 1 to 64 letters and digits; got "abc/def"',
    ],
    [
      "a bad Cloudflare zone id",
      { CAPA_EDGE_PURGE: "cloudflare:example.com", CAPA_EDGE_TOKEN: TOKEN },
      'CAPA_EDGE_PURGE: a Cloudflare zone id is 32 hexadecimal digits; got "example.com"',
    ],
    ["purging without a token", { CAPA_EDGE_PURGE: "fastly:abc" }, "CAPA_EDGE_TOKEN must be set with CAPA_EDGE_PURGE: the token of the purge API"],
    ["a token without purging", { CAPA_EDGE_TOKEN: TOKEN }, "CAPA_EDGE_TOKEN is set but CAPA_EDGE_PURGE is not; set both to purge an edge cache, or neither"],
    [
      "a short token (not repeated)",
      { CAPA_EDGE_PURGE: "fastly:abc", CAPA_EDGE_TOKEN: "hunter2" },
      "CAPA_EDGE_TOKEN must be 16 to 1024 visible ASCII characters without spaces",
    ],
    [
      "a token with a space (not repeated)",
      { CAPA_EDGE_PURGE: "fastly:abc", CAPA_EDGE_TOKEN: "edge token 0123456789" },
      "CAPA_EDGE_TOKEN must be 16 to 1024 visible ASCII characters without spaces",
    ],
    ["a TTL of 0", { CAPA_EDGE_TTL: "0" }, 'CAPA_EDGE_TTL must be a whole number of seconds from 1 to 31536000, got "0"'],
    ["a TTL in words", { CAPA_EDGE_TTL: "1d" }, 'CAPA_EDGE_TTL must be a whole number of seconds from 1 to 31536000, got "1d"'],
    ["a bad allowance", { CAPA_EDGE_ALLOW_PRIVATE: "maybe" }, 'CAPA_EDGE_ALLOW_PRIVATE must be one of 1, 0, true, false, on, off; got "maybe"'],
  ];

  test.each(bad)("refused: %s", (_name, env, message) => {
    expect(() => readEdgeSettings(env)).toThrow(message);
    let thrown: Error | null = null;
    try {
      loadConfig(env);
    } catch (e) {
      thrown = e as Error;
    }
    expect(thrown?.message).toBe(message);
    expect(thrown?.message).not.toContain("hunter2");
    expect(thrown?.message).not.toContain("\n");
  });
});
