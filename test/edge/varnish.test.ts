// Capa behind a real Varnish 7 with varnish-modules (decisions.md 14; deploy/varnish/): the
// shipped capa.vcl compiles as it is; a second read is a hit; the cache key splits by key,
// version, contract and Origin and ignores cookies; development keys and refusals are never
// kept; a publish shows at the edge within 1 s; a revoked key gets 401 through the edge at once;
// PURGE is refused from an unlisted address, without the token and without tags; a purge the edge
// refuses is retried and shows in /healthz; Capa restarted with purges queued still sends them;
// and while Capa is down Varnish serves what it kept. Wall time, kept to seconds.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { request } from "node:http";
import { join } from "node:path";
import { edgeConfig, edgeProject, outbox, reopen, TOKEN, type EdgeProject } from "./fixture.ts";
import { freePort, startVarnish, varnishdPath, type Varnish } from "../../scripts/varnish.ts";

let v: Varnish;
let p: EdgeProject;
let port: number;
let postId: string;

/** Serves `p`'s app on the one port Varnish's backend.vcl names, live (a commit's purge goes out at once). */
function serve(q: EdgeProject): void {
  q.h.capa.app.listen({ port, hostname: "127.0.0.1" });
  q.h.capa.services.edge.goLive();
}

/** Stops serving and closes the app, keeping its data directory for the next start. */
async function stopApp(q: EdgeProject): Promise<void> {
  await q.h.capa.app.stop(true);
  q.h.capa.close();
}

/** Starts the app again on the same data directory and port with other edge settings. */
async function restart(env: Record<string, string>, live = true): Promise<void> {
  await stopApp(p);
  p = reopen(p, edgeConfig({ CAPA_EDGE_PURGE: `varnish:${v.origin}`, ...env }));
  p.h.capa.app.listen({ port, hostname: "127.0.0.1" });
  if (live) p.h.capa.services.edge.goLive();
}

/** A read through Varnish. */
const edge = (path: string, key: string, headers: Record<string, string> = {}) => fetch(v.origin + path, { headers: { "x-api-key": key, ...headers } });
const titleAtEdge = async (id: string) => ((await (await edge(`/api/entries/post/${id}?select=title`, p.prod.secret)).json()) as any).data.title;

/** Polls until `done` holds, up to `ms`; answers how long it took. */
async function within(ms: number, done: () => Promise<boolean>): Promise<number> {
  const t0 = performance.now();
  while (!(await done())) {
    if (performance.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await Bun.sleep(10);
  }
  return performance.now() - t0;
}

/** A PURGE sent from `localAddress` (127.0.0.2 is not in backend.vcl's list): [status, body]. */
function purgeFrom(localAddress: string, headers: Record<string, string>): Promise<[number, string]> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: v.port, method: "PURGE", path: "/", localAddress, headers }, (res) => {
      let body = "";
      res.on("data", (c) => {
        body += c;
      });
      res.on("end", () => resolve([res.statusCode!, body]));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  varnishdPath();
  port = freePort();
  v = await startVarnish(port, TOKEN);
  p = await edgeProject(edgeConfig({ CAPA_EDGE_PURGE: `varnish:${v.origin}` }));
  serve(p);
  postId = await p.post("First");
  // Nothing is at the edge yet; the publish's purge went out and found nothing to drop.
  await p.h.capa.services.edge.idle();
});

afterAll(async () => {
  await stopApp(p).catch(() => {});
  p.h.close();
  await v?.stop();
});

test("the shipped capa.vcl and backend.vcl compile as they are", async () => {
  const deploy = join(import.meta.dir, "..", "..", "deploy", "varnish");
  const c = Bun.spawn([varnishdPath(), "-C", "-f", join(deploy, "capa.vcl"), "-p", `vcl_path=${deploy}`, "-n", join(v.dir, "compile")], {
    stdout: "ignore",
    stderr: "pipe",
  });
  // -C prints the compiled C on stderr; a VCL error is a message from the compiler and a non-zero exit.
  const out = await new Response(c.stderr).text();
  expect([await c.exited, out.includes("Message from VCC-compiler")]).toEqual([0, false]);
});

describe("what the edge keeps", () => {
  test("a second read is a hit, byte for byte, with Age; the edge headers are not passed on, Surrogate-Key is", async () => {
    const path = `/api/entries/post/${postId}?select=title`;
    const a = await edge(path, p.prod.secret);
    const b = await edge(path, p.prod.secret);
    expect([a.status, a.headers.get("x-cache"), b.status, b.headers.get("x-cache")]).toEqual([200, "MISS", 200, "HIT"]);
    expect(await b.text()).toBe(await a.text());
    expect(Number(b.headers.get("age"))).toBeGreaterThanOrEqual(0);
    expect(b.headers.get("etag")).toBe(a.headers.get("etag"));
    expect(b.headers.get("vary")).toBe("Origin, x-api-key, Svc-Version, Svc-Contract");
    expect(b.headers.get("cache-control")).toBe("public, max-age=60");
    expect(b.headers.get("surrogate-key")).toBe(`project:${p.projectId} model:post entry:${postId} key:${p.prod.id}`);
    expect([b.headers.get("xkey"), b.headers.get("cache-tag"), b.headers.get("surrogate-control"), b.headers.get("x-capa-vary")]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    // A revalidation is answered by the edge itself.
    const n = await edge(path, p.prod.secret, { "if-none-match": a.headers.get("etag")! });
    expect([n.status, n.headers.get("x-cache")]).toEqual([304, "HIT"]);
  });

  test("the key, Svc-Version, Svc-Contract and Origin split the cache; a cookie does not", async () => {
    const path = `/api/entries/post?select=title&limit=5`;
    expect((await edge(path, p.prod.secret)).headers.get("x-cache")).toBe("MISS");
    const other = await p.ok("POST", "/v2/tenants/api-keys", { name: "second site", scopes: ["instance:read"], environment: "production" });
    for (const [key, headers] of [
      [other.apiKey, {}],
      [p.prod.secret, { "svc-version": "2026-10-01" }],
      [p.prod.secret, { "svc-contract": "1" }],
      [p.prod.secret, { origin: "https://site.example.com" }],
    ] as [string, Record<string, string>][]) {
      expect({ headers, first: (await edge(path, key, headers)).headers.get("x-cache") }).toEqual({ headers, first: "MISS" });
      expect({ headers, second: (await edge(path, key, headers)).headers.get("x-cache") }).toEqual({ headers, second: "HIT" });
    }
    expect((await edge(path, p.prod.secret, { cookie: "session=abc" })).headers.get("x-cache")).toBe("HIT");
    // An Origin's answer carries its CORS headers, from the edge too.
    const o = await edge(path, p.prod.secret, { origin: "https://site.example.com" });
    expect(o.headers.get("access-control-allow-origin")).toBe("https://site.example.com");
  });

  test("development keys, GraphQL POST, refusals and management are never kept", async () => {
    for (let i = 0; i < 2; i++) {
      const d = await edge(`/api/entries/post/${postId}`, p.dev.secret);
      expect({ i, status: d.status, cache: d.headers.get("x-cache") }).toEqual({ i, status: 200, cache: "PASS" });
      const bad = await edge(`/api/entries/post/${postId}`, "svc_live_000000000000000000000000nope");
      expect({ i, status: bad.status, cache: bad.headers.get("x-cache") }).toEqual({ i, status: 401, cache: "PASS" });
    }
    const post = await fetch(`${v.origin}/api/graphql`, {
      method: "POST",
      headers: { "x-api-key": p.prod.secret, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ version }" }),
    });
    expect([post.status, post.headers.get("x-cache")]).toEqual([200, "PASS"]);
    expect((await fetch(`${v.origin}/healthz`)).headers.get("x-cache")).toBe("PASS");
  });
});

describe("purges", () => {
  test("publish, edit and publish again: the edge answers the new value within 1 s", async () => {
    expect(await titleAtEdge(postId)).toBe("First");
    expect(await titleAtEdge(postId)).toBe("First");
    for (const title of ["Second", "Third"]) {
      const t0 = performance.now();
      await p.republish(postId, title);
      const took = await within(1000, async () => (await titleAtEdge(postId)) === title);
      expect(performance.now() - t0).toBeLessThan(1000);
      expect(took).toBeLessThan(1000);
    }
    // Each publish is one call; nothing is left over.
    await p.h.capa.services.edge.idle();
    expect(outbox(p)).toEqual({ project: [], control: [] });
  });

  test("a GraphQL GET at the edge is purged by a publish too", async () => {
    const q = `/api/graphql?query=${encodeURIComponent(`{ postById(id: "${postId}") { title } }`)}`;
    const read = async () => ((await (await edge(q, p.prod.secret)).json()) as any).data.postById.title;
    expect(await read()).toBe("Third");
    expect((await edge(q, p.prod.secret)).headers.get("x-cache")).toBe("HIT");
    await p.republish(postId, "Fourth");
    await within(1000, async () => (await read()) === "Fourth");
  });

  test("a revoked key gets 401 through the edge at once, and never from the cache", async () => {
    const k = await p.ok("POST", "/v2/tenants/api-keys", { name: "to revoke", scopes: ["instance:read"], environment: "production" });
    const path = `/api/entries/post/${postId}?select=title`;
    await edge(path, p.prod.secret);
    expect((await edge(path, k.apiKey)).headers.get("x-cache")).toBe("MISS");
    expect((await edge(path, k.apiKey)).headers.get("x-cache")).toBe("HIT");
    await p.ok("PATCH", `/v2/tenants/api-keys/${k.id}/active`, { active: false });
    const took = await within(1000, async () => (await edge(path, k.apiKey)).status === 401);
    expect(took).toBeLessThan(1000);
    for (let i = 0; i < 3; i++) {
      const r = await edge(path, k.apiKey);
      expect([r.status, r.headers.get("x-cache")]).toEqual([401, "PASS"]);
    }
    // The other key's answer was not purged.
    expect((await edge(path, p.prod.secret)).headers.get("x-cache")).toBe("HIT");
  });

  test("PURGE is refused from an unlisted address, without the right token and without tags", async () => {
    const good = { authorization: `Bearer ${TOKEN}`, "xkey-purge": `entry:${postId}` };
    expect(await purgeFrom("127.0.0.2", good)).toEqual([403, "Forbidden"]);
    expect(await purgeFrom("127.0.0.1", { "xkey-purge": `entry:${postId}` })).toEqual([401, "Unauthorized"]);
    expect(await purgeFrom("127.0.0.1", { ...good, authorization: "Bearer wrong-token-0123456789" })).toEqual([401, "Unauthorized"]);
    expect(await purgeFrom("127.0.0.1", { authorization: `Bearer ${TOKEN}` })).toEqual([400, "No xkey-purge header"]);
    // The cached answer is still there; a right PURGE drops it (this key's one object).
    expect((await edge(`/api/entries/post/${postId}?select=title`, p.prod.secret)).headers.get("x-cache")).toBe("HIT");
    expect(await purgeFrom("127.0.0.1", { ...good, "xkey-purge": `key:${p.prod.id} entry:nothing-else` })).toEqual([
      200,
      expect.stringMatching(/^Purged [1-9]\d*$/),
    ]);
    expect((await edge(`/api/entries/post/${postId}?select=title`, p.prod.secret)).headers.get("x-cache")).toBe("MISS");
  });
});

describe("failures and restarts", () => {
  test("a purge the edge refuses (wrong token) stays queued, is retried with back-off, and shows in /healthz", async () => {
    await restart({ CAPA_EDGE_TOKEN: "wrong-token-0123456789" });
    expect(await titleAtEdge(postId)).toBe("Fourth");
    await p.republish(postId, "Fifth");
    await within(1000, async () => outbox(p).project[0]?.attempts === 1);
    await p.h.capa.services.edge.idle();
    const target = `varnish:${v.origin}/`;
    const [row] = outbox(p).project;
    expect(row).toEqual({
      target,
      tags: [`entry:${postId}`, "model:post"],
      attempts: 1,
      nextAttemptAt: new Date(p.h.clock.now() + 1000).toISOString(),
      lastError: "Answered 401: Unauthorized",
    });
    // The edge still serves what it kept: it was never told.
    expect(await titleAtEdge(postId)).toBe("Fourth");
    const health = await p.h.json("GET", "/healthz");
    expect(health.body.status).toBe("ok");
    expect(health.body.edge).toEqual({
      purging: true,
      ttlSeconds: 86400,
      targets: [
        {
          target,
          vendor: "varnish",
          pending: 1,
          oldestSeconds: 0,
          calls: 1,
          failures: 1,
          lastSuccessAt: null,
          lastError: "Answered 401: Unauthorized",
          lastErrorAt: new Date(p.h.clock.now()).toISOString(),
          retryAt: new Date(p.h.clock.now() + 1000).toISOString(),
        },
      ],
    });
    // Not before its time; then again, refused again, and the wait doubles.
    await p.h.capa.services.edge.runDue();
    expect(outbox(p).project[0]!.attempts).toBe(1);
    p.h.clock.advance(1000);
    await p.h.capa.services.edge.runDue();
    expect(outbox(p).project[0]).toMatchObject({ attempts: 2, nextAttemptAt: new Date(p.h.clock.now() + 2000).toISOString() });
    // A purge waiting more than 60 s makes the server degraded.
    p.h.clock.advance(61_000);
    const late = await p.h.json("GET", "/healthz");
    expect([late.status, late.body.status, late.body.edge.targets[0].oldestSeconds]).toEqual([200, "degraded", 62]);
  });

  test("Capa restarted with purges queued sends them: the refused one, and one written while nothing sent", async () => {
    // Restarted with the right token, not yet live: the first tick sends what the last process left.
    await restart({}, false);
    expect(outbox(p).project).toHaveLength(1);
    await p.h.capa.services.edge.runDue();
    expect(outbox(p)).toEqual({ project: [], control: [] });
    expect(await titleAtEdge(postId)).toBe("Fifth");
    expect((await p.h.json("GET", "/healthz")).body.status).toBe("ok");
    // A publish whose process stops before any tick.
    await p.republish(postId, "Sixth");
    expect(outbox(p).project).toHaveLength(1);
    expect(await titleAtEdge(postId)).toBe("Fifth");
    await restart({}, false);
    await p.h.capa.services.edge.runDue();
    expect(await titleAtEdge(postId)).toBe("Sixth");
    expect(outbox(p)).toEqual({ project: [], control: [] });
  });

  test("while Capa is down, Varnish serves what it kept past its lifetime (grace)", async () => {
    await restart({ CAPA_EDGE_TTL: "1" });
    const path = `/api/entries/post/${postId}?select=title&grace=1`;
    const first = await edge(path, p.prod.secret);
    expect([first.status, first.headers.get("x-cache")]).toEqual([200, "MISS"]);
    await stopApp(p);
    await Bun.sleep(1500);
    const stale = await edge(path, p.prod.secret);
    expect([stale.status, stale.headers.get("x-cache")]).toEqual([200, "HIT"]);
    expect(Number(stale.headers.get("age"))).toBeGreaterThanOrEqual(1);
    expect(((await stale.json()) as any).data.title).toBe("Sixth");
    // Started again for afterAll.
    p = reopen(p, edgeConfig({ CAPA_EDGE_PURGE: `varnish:${v.origin}` }));
    p.h.capa.app.listen({ port, hostname: "127.0.0.1" });
  });
});
