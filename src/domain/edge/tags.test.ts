// The tag budget of edge/tags.ts: every tag while the three headers fit Varnish's 8 KiB header
// (and so Fastly's and Cloudflare's 16 KB), the model tags standing in for entry tags past it,
// and no lifetime at the edge for an answer whose other tags cannot fit.
import { describe, expect, test } from "bun:test";
import { addEdgeHeaders, edgeServe, fitTags, TAG_HEADER_BYTES } from "./tags.ts";
import { EDGE_OFF, readEdgeSettings } from "./settings.ts";

const P = "01a22155-e04f-7399-a385-01e7660424ff";
const K = "01a22155-e0f0-76fa-90b8-1dd6773cdec9";
const ids = (n: number) => Array.from({ length: n }, (_, i) => `01a22155-e0d1-75b4-a4fa-${String(i).padStart(12, "0")}`);
const serve = edgeServe(EDGE_OFF, K, null, 0);

function headersOf(models: string[], entries: string[], extra: string[] = []) {
  const h: Record<string, string> = {};
  addEdgeHeaders(h, fitTags(P, models, entries, extra), serve);
  return h;
}

describe("fitTags and addEdgeHeaders", () => {
  test("every tag when they fit, the key's last; Cache-Tag comma-separated", () => {
    expect(headersOf(["post", "author"], ids(2), [`schema:${P}`])).toEqual({
      "surrogate-key": `project:${P} schema:${P} model:post model:author entry:${ids(2)[0]} entry:${ids(2)[1]} key:${K}`,
      xkey: `project:${P} schema:${P} model:post model:author entry:${ids(2)[0]} entry:${ids(2)[1]} key:${K}`,
      "cache-tag": `project:${P},schema:${P},model:post,model:author,entry:${ids(2)[0]},entry:${ids(2)[1]},key:${K}`,
      "surrogate-control": "max-age=60",
    });
  });

  test("the largest list of entries that fits keeps them all, one more drops every entry tag and keeps the models", () => {
    // project:<36> is 44 bytes, model:post 10, each entry 42, the key 40; one space between each.
    const fits = Math.floor((TAG_HEADER_BYTES - 44 - 1 - 10 - 1 - 40) / 43);
    const full = headersOf(["post"], ids(fits));
    expect(full["surrogate-key"]!.split(" ")).toHaveLength(fits + 3);
    expect(full["surrogate-key"]!.length).toBeLessThanOrEqual(TAG_HEADER_BYTES);
    const over = headersOf(["post"], ids(fits + 1));
    expect(over["surrogate-key"]).toBe(`project:${P} model:post key:${K}`);
    expect(over["cache-tag"]).toBe(`project:${P},model:post,key:${K}`);
    expect(over["surrogate-control"]).toBe("max-age=60");
  });

  test("models that cannot fit: no tags, and Surrogate-Control no-store (the edge must not keep what it cannot purge)", () => {
    const models = Array.from({ length: 200 }, (_, i) => `model_${"x".repeat(40)}_${i}`);
    expect(fitTags(P, models, ids(1))).toBeNull();
    expect(headersOf(models, ids(1))).toEqual({ "surrogate-control": "no-store" });
    const h: Record<string, string> = {};
    addEdgeHeaders(
      h,
      null,
      edgeServe(readEdgeSettings({ CAPA_EDGE_PURGE: "cloudflare:023e105f4ecef8ad9ca31a8372d0c353", CAPA_EDGE_TOKEN: "t".repeat(40) }), K, null, 0),
    );
    expect(h).toEqual({ "surrogate-control": "no-store", "cloudflare-cdn-cache-control": "no-store" });
  });
});

describe("edgeServe", () => {
  const day = readEdgeSettings({ CAPA_EDGE_PURGE: "fastly:abc", CAPA_EDGE_TOKEN: "t".repeat(32) });
  const now = Date.UTC(2026, 10, 21, 12);
  test.each([
    ["no expiry", null, "max-age=86400"],
    ["an expiry a week away", new Date(now + 7 * 86_400_000).toISOString(), "max-age=86400"],
    ["an expiry in 90.9 s", new Date(now + 90_900).toISOString(), "max-age=90"],
    ["an expiry past", new Date(now - 1000).toISOString(), "max-age=0"],
  ] as const)("%s: %s", (_name, expiresAt, control) => {
    expect(edgeServe(day, K, expiresAt, now)).toEqual({ keyId: K, control, cloudflare: false });
  });
});
