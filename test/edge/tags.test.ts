// Tags and lifetimes of production answers (decisions.md 14, interface.md "Read API response
// headers"): REST lists, items, 304s and a cacheable 404, and GraphQL GET carry Surrogate-Key,
// xkey and Cache-Tag with project, model, entry and key tags (GraphQL also schema), and
// Surrogate-Control max-age=CAPA_EDGE_TTL cut at the key's expiry; development, preview, POST and
// uncached GraphQL answers carry none of them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { publishEntry } from "../../src/domain/entries/publish.ts";
import { edgeConfig, edgeProject, type EdgeProject } from "./fixture.ts";

let p: EdgeProject;
let a: string;
let b: string;
const EDGE_HEADERS = ["surrogate-key", "xkey", "cache-tag", "surrogate-control", "cloudflare-cdn-cache-control"];

/** The edge headers of an answer, by name (null when absent). */
const edgeOf = (r: Response) => Object.fromEntries(EDGE_HEADERS.map((n) => [n, r.headers.get(n)]));

/** The three tag headers of `tags` plus Surrogate-Control, as Capa sends them. */
const tagged = (tags: string[], control: string, cloudflare: string | null = null) => ({
  "surrogate-key": tags.join(" "),
  xkey: tags.join(" "),
  "cache-tag": tags.join(","),
  "surrogate-control": control,
  "cloudflare-cdn-cache-control": cloudflare,
});
const NONE = { "surrogate-key": null, xkey: null, "cache-tag": null, "surrogate-control": null, "cloudflare-cdn-cache-control": null };

beforeAll(async () => {
  p = await edgeProject(edgeConfig({ CAPA_EDGE_PURGE: "varnish:http://127.0.0.1:6081" }));
  a = await p.post("Alpha");
  b = await p.post("Beta");
});
afterAll(() => p.h.close());

describe("REST production answers", () => {
  test("a list: project, model, every entry, then the key; the edge keeps it a day", async () => {
    const r = await p.read("/api/entries/post?sort=title&select=title", p.prod.secret);
    expect(r.status).toBe(200);
    expect(edgeOf(r)).toEqual(tagged([`project:${p.projectId}`, "model:post", `entry:${a}`, `entry:${b}`, `key:${p.prod.id}`], "max-age=86400"));
    // Browsers keep what they kept before.
    expect(r.headers.get("cache-control")).toBe("public, max-age=60");
  });

  test("an item, its 304 and a second key of the same grants (same cached answer, its own key tag)", async () => {
    const tags = [`project:${p.projectId}`, "model:post", `entry:${a}`];
    const r = await p.read(`/api/entries/post/${a}`, p.prod.secret);
    expect(edgeOf(r)).toEqual(tagged([...tags, `key:${p.prod.id}`], "max-age=86400"));
    const n = await p.read(`/api/entries/post/${a}`, p.prod.secret, { "if-none-match": r.headers.get("etag")! });
    expect(n.status).toBe(304);
    expect(edgeOf(n)).toEqual(tagged([...tags, `key:${p.prod.id}`], "max-age=86400"));
    const other = await p.ok("POST", "/v2/tenants/api-keys", { name: "site two", scopes: ["instance:read"], environment: "production" });
    const o = await p.read(`/api/entries/post/${a}`, other.apiKey);
    expect(edgeOf(o)).toEqual(tagged([...tags, `key:${other.id}`], "max-age=86400"));
  });

  test("a 404 entry_not_found for a well-formed id is tagged with that entry and its model, so its publish purges it", async () => {
    const draft = (await p.ok("POST", "/v2/model-instances", { model: "post", data: { title: "Draft" } })).id;
    const r = await p.read(`/api/entries/post/${draft.toUpperCase()}`, p.prod.secret);
    expect(r.status).toBe(404);
    expect(r.headers.get("cache-control")).toBe("public, max-age=60");
    expect(edgeOf(r)).toEqual(tagged([`project:${p.projectId}`, "model:post", `entry:${draft}`, `key:${p.prod.id}`], "max-age=86400"));
    // Other refusals are never kept.
    for (const path of ["/api/entries/post/nope", "/api/entries/nope", "/api/entries/post?limit=0"]) {
      const x = await p.read(path, p.prod.secret);
      expect([x.status >= 400, x.headers.get("cache-control"), edgeOf(x)]).toEqual([true, "no-store", NONE]);
    }
  });

  test("Surrogate-Control never outlives the key: an expiry in 2 h cuts the day to 7200 s", async () => {
    const at = new Date(p.h.clock.now() + 2 * 3600_000).toISOString();
    const k = await p.ok("POST", "/v2/tenants/api-keys", { name: "expiring", scopes: ["instance:read"], environment: "production", expiresAt: at });
    expect(edgeOf(await p.read(`/api/entries/post/${a}`, k.apiKey))["surrogate-control"]).toBe("max-age=7200");
    p.h.clock.advance(3600_000 + 500);
    expect(edgeOf(await p.read(`/api/entries/post/${a}`, k.apiKey))["surrogate-control"]).toBe("max-age=3599");
    p.h.clock.advance(-3600_000 - 500);
  });
});

describe("answers the edge never keeps", () => {
  test("an answer read while a publish committed: Surrogate-Control no-store and no tags (the purge may arrive first)", async () => {
    const s = p.h.capa.services;
    const h = s.projects.get(p.projectId);
    // A list runs on a read worker; the publish commits on the main thread right after the read
    // is handed over, so the answer comes back to a project whose generation moved.
    const run = s.reads.run.bind(s.reads);
    s.reads.run = (job) => {
      const out = run(job);
      s.reads.run = run;
      publishEntry(s, h, "system", b);
      return out;
    };
    const r = await p.read("/api/entries/post?select=title&sort=-title", p.prod.secret);
    expect([r.status, r.headers.get("cache-control"), edgeOf(r)]).toEqual([200, "public, max-age=60", { ...NONE, "surrogate-control": "no-store" }]);
    // The next read is rendered afresh and kept as usual.
    const next = await p.read("/api/entries/post?select=title&sort=-title", p.prod.secret);
    expect(edgeOf(next)["surrogate-control"]).toBe("max-age=86400");
  });

  test("development keys, preview tokens and refusals carry no tags and no Surrogate-Control", async () => {
    for (const path of ["/api/entries/post", `/api/entries/post/${a}`]) {
      const d = await p.read(path, p.dev.secret);
      expect([d.status, d.headers.get("cache-control"), edgeOf(d)]).toEqual([200, "no-store, no-cache", NONE]);
    }
    const t = await p.ok("POST", "/v2/preview-tokens", { entryIds: [a] });
    const pv = await p.read(`/api/entries/post/${a}?preview=${t.token}`, p.prod.secret);
    expect([pv.status, pv.headers.get("cache-control"), edgeOf(pv)]).toEqual([200, "no-store", NONE]);
    const bad = await p.read("/api/entries/post", "svc_live_nope");
    expect([bad.status, edgeOf(bad)]).toEqual([401, NONE]);
  });
});

describe("GraphQL", () => {
  const q = encodeURIComponent("{ post(first: 5, sort: [title_ASC]) { nodes { title } } }");

  test("a production GET: the REST tags plus schema:<projectId>; its 304 too", async () => {
    const r = await p.read(`/api/graphql?query=${q}`, p.prod.secret);
    expect(r.status).toBe(200);
    const tags = [`project:${p.projectId}`, `schema:${p.projectId}`, "model:post", `entry:${a}`, `entry:${b}`, `key:${p.prod.id}`];
    expect(edgeOf(r)).toEqual(tagged(tags, "max-age=86400"));
    const n = await p.read(`/api/graphql?query=${q}`, p.prod.secret, { "if-none-match": r.headers.get("etag")! });
    expect([n.status, edgeOf(n)]).toEqual([304, tagged(tags, "max-age=86400")]);
  });

  test("a single root for an id not published names its model, so the publish purges the null", async () => {
    const draft = (await p.ok("POST", "/v2/model-instances", { model: "post", data: { title: "Later" } })).id;
    const r = await p.read(`/api/graphql?query=${encodeURIComponent(`{ postById(id: "${draft}") { title } }`)}`, p.prod.secret);
    expect(await r.json()).toMatchObject({ data: { postById: null } });
    expect(r.headers.get("surrogate-key")).toBe(`project:${p.projectId} schema:${p.projectId} model:post key:${p.prod.id}`);
  });

  test("a GET whose reads ran while a publish committed is not kept at the edge", async () => {
    const s = p.h.capa.services;
    const run = s.reads.run.bind(s.reads);
    s.reads.run = (job) => {
      const out = run(job);
      s.reads.run = run;
      publishEntry(s, s.projects.get(p.projectId), "system", a);
      return out;
    };
    const r = await p.read(`/api/graphql?query=${encodeURIComponent("{ post(first: 3) { nodes { title } } }")}`, p.prod.secret);
    expect([r.status, edgeOf(r)]).toEqual([200, { ...NONE, "surrogate-control": "no-store" }]);
  });

  test("POST, a development GET and an answer with errors carry none", async () => {
    const post = await p.h.req("POST", "/api/graphql", { headers: { "x-api-key": p.prod.secret }, body: { query: "{ post { nodes { title } } }" } });
    expect([post.status, edgeOf(post)]).toEqual([200, NONE]);
    const dev = await p.read(`/api/graphql?query=${q}`, p.dev.secret);
    expect([dev.status, edgeOf(dev)]).toEqual([200, NONE]);
    const bad = await p.read(`/api/graphql?query=${encodeURIComponent("{ nope }")}`, p.prod.secret);
    expect([bad.status, edgeOf(bad)]).toEqual([400, NONE]);
  });
});

describe("lifetimes by setting", () => {
  test("without CAPA_EDGE_PURGE the edge keeps answers 60 s, as browsers do; CAPA_EDGE_TTL sets it", async () => {
    for (const [env, control] of [
      [{}, "max-age=60"],
      [{ CAPA_EDGE_TTL: "600" }, "max-age=600"],
    ] as const) {
      const q = await edgeProject(edgeConfig(env));
      try {
        const id = await q.post("One");
        const r = await q.read(`/api/entries/post/${id}`, q.prod.secret);
        expect(edgeOf(r)).toEqual(tagged([`project:${q.projectId}`, "model:post", `entry:${id}`, `key:${q.prod.id}`], control));
      } finally {
        q.h.close();
      }
    }
  });

  test("with a Cloudflare target the lifetime is in Cloudflare-CDN-Cache-Control too (Cloudflare reads no Surrogate-Control)", async () => {
    const q = await edgeProject(edgeConfig({ CAPA_EDGE_PURGE: "cloudflare:023e105f4ecef8ad9ca31a8372d0c353", CAPA_EDGE_TTL: "3600" }));
    try {
      const id = await q.post("One");
      const r = await q.read(`/api/entries/post/${id}`, q.prod.secret);
      expect(edgeOf(r)).toEqual(tagged([`project:${q.projectId}`, "model:post", `entry:${id}`, `key:${q.prod.id}`], "max-age=3600", "max-age=3600"));
    } finally {
      q.h.close();
    }
  });
});
