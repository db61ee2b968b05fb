// docs/site-builders.md (issue 23 item 6): every code block in it is a file of docs/snippets/
// (or a region of a test), shown whole and checked byte for byte here; and each snippet runs
// here against the real server on a socket: REST reads and revalidation, the framework data
// functions, Apollo and urql, the SDL for codegen, srcset URLs, and the rebuild webhook with
// real deliveries. The browser snippet also runs in Chromium from another origin
// (test/api/cross-origin.browser.test.ts); the OpenAPI ones in test/openapi/client.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import sharp from "sharp";
import type { Harness } from "../harness.ts";
import { createHook, deliver, testCerts, webhookApp } from "../webhooks/receiver.ts";

const ROOT = join(import.meta.dir, "..", "..");
const DOC = join(ROOT, "docs", "site-builders.md");

describe("the document", () => {
  test("every code block is a snippet file (or a test's region), shown exactly", async () => {
    const text = await Bun.file(DOC).text();
    const blocks = [...text.matchAll(/<!-- snippet: ([^ ]+) -->\n```(\w+)\n([\s\S]*?)```\n/g)];
    const all = [...text.matchAll(/```\w*\n/g)].length / 2;
    expect(blocks.length).toBe(all);
    expect(blocks.length).toBeGreaterThanOrEqual(9);
    for (const [, ref, , code] of blocks) {
      const [file, region] = ref!.split("#");
      let source = await Bun.file(join(ROOT, file!)).text();
      if (region) {
        const m = new RegExp(`// #region ${region}\\n([\\s\\S]*?)\\s*// #endregion ${region}`).exec(source);
        expect(m).not.toBeNull();
        source = `${m![1]!.replace(/^ {4}/gm, "")}\n`;
      }
      expect([ref, code]).toEqual([ref, source]);
    }
  });
});

describe("the snippets against the real server", () => {
  let h: Harness;
  let token: string;
  let server: ReturnType<typeof Bun.serve>;
  let api: string;
  let key: string;
  let cover: { url: string; alt: string; width: number; height: number };
  const posts: Record<string, string> = {};

  beforeAll(async () => {
    const app = await webhookApp();
    ({ h, token } = app);
    server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: h.capa.app.fetch });
    api = server.url.origin;
    const ok = async (method: string, path: string, body?: unknown) => {
      const r = await h.json(method, path, { token, body });
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    await ok("POST", "/v2/models", {
      name: "Post",
      namespace: "post",
      fields: [
        { namespace: "title", type: "string" },
        { namespace: "slug", type: "string" },
        { namespace: "cover", type: "image" },
      ],
    });
    const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 20, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    const fd = new FormData();
    fd.append("file", new Blob([png]), "cover.png");
    fd.append("alt", "A blue cover");
    const file = (await h.json("POST", "/v2/media", { token, raw: fd })).body;
    for (const [title, slug] of [
      ["Hello", "hello"],
      ["Second", "second"],
    ]) {
      h.clock.advance(1000);
      const e = await ok("POST", "/v2/model-instances", { model: "post", data: { title, slug, cover: { id: file.id } } });
      await ok("POST", `/v2/model-instances/${e.id}/publish`);
      posts[slug!] = e.id;
    }
    key = (await ok("POST", "/v2/tenants/api-keys", { scopes: ["instance:read"], name: "site" })).apiKey;
    const read = await h.json("GET", `/api/entries/post/${posts.hello}?select=cover`, { headers: { "x-api-key": key } });
    cover = { ...read.body.data.cover, url: `${api}${new URL(read.body.data.cover.url).pathname}` };
  });
  afterAll(() => {
    server.stop(true);
    h.close();
  });

  test("read-rest.ts: a page of posts, the next page, one post, a missing one, and a refusal", async () => {
    const { readPosts, readPost } = await import("../../docs/snippets/read-rest.ts");
    const one = await readPosts(api, key);
    expect(one.posts.map((p) => [p.title, p.slug])).toEqual([
      ["Second", "second"],
      ["Hello", "hello"],
    ]);
    expect(one.next).toBeNull();
    expect((await readPost(api, key, posts.hello!))?.title).toBe("Hello");
    expect(await readPost(api, key, "0192f2c4-7d3a-7b6e-9a1c-2f4b5c6d7e8f")).toBeNull();
    await expect(readPosts(api, "svc_live_nope")).rejects.toThrow("401 invalid_key: ");
  });

  test("revalidate.ts: the second read is a 304 and keeps the copy", async () => {
    const { cachedRead } = await import("../../docs/snippets/revalidate.ts");
    const url = `${api}/api/entries/post?select=title`;
    const first = await cachedRead(url, key);
    const second = await cachedRead(url, key);
    expect([first.fresh, second.fresh]).toEqual([true, false]);
    expect(second.body).toEqual(first.body);
  });

  test("frameworks.ts: Next.js, Astro and SvelteKit data functions", async () => {
    process.env.CAPA_URL = api;
    process.env.CAPA_KEY = key;
    const f = await import("../../docs/snippets/frameworks.ts");
    expect((await f.getPostBySlug("hello")).id).toBe(posts.hello);
    expect(await f.getPostBySlug("nope")).toBeNull();
    expect((await f.getStaticPaths()).map((p) => p.params.slug).sort()).toEqual(["hello", "second"]);
    expect((await f.load({ fetch })).posts.map((p) => p.slug)).toEqual(["second", "hello"]);
  });

  test("graphql-clients.ts: Apollo by POST and urql by GET read the same page", async () => {
    const { apolloClient, urqlClient, POSTS } = await import("../../docs/snippets/graphql-clients.ts");
    const a = await apolloClient(api, key).query({ query: POSTS, variables: { first: 10 } });
    const u = await urqlClient(api, key).query(POSTS, { first: 10 }).toPromise();
    const titles = (d: any) => d.post.nodes.map((n: any) => n.title);
    expect(titles(a.data)).toEqual(["Hello", "Second"]);
    expect(titles(u.data)).toEqual(["Hello", "Second"]);
    expect(u.error).toBeUndefined();
  });

  test("schema-sdl.ts: the SDL names the model type", async () => {
    const { schemaSdl } = await import("../../docs/snippets/schema-sdl.ts");
    const sdl = await schemaSdl(api, key);
    expect(sdl).toContain("type Post implements Node & Entry {");
    expect(sdl).toContain("  slug: String\n");
  });

  test("srcset.ts: every width is an image of that width, in the format the browser takes", async () => {
    const { srcset, img } = await import("../../docs/snippets/srcset.ts");
    const set = srcset(cover.url);
    expect(img(cover)).toContain(`srcset="${set}"`);
    for (const item of set.split(", ")) {
      const [url, w] = item.split(" ");
      const res = await fetch(url!, { headers: { accept: "image/avif,image/webp,*/*" } });
      const meta = await sharp(new Uint8Array(await res.arrayBuffer())).metadata();
      expect([res.status, res.headers.get("content-type"), meta.width]).toEqual([200, "image/avif", Number(w!.slice(0, -1))]);
    }
  });

  test("rebuild-webhook.ts: a verified publish triggers one build; a bad signature none", async () => {
    const { onCapaWebhook } = await import("../../docs/snippets/rebuild-webhook.ts");
    const c = await testCerts();
    let builds = 0;
    const buildHook = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => {
        builds++;
        return new Response("queued");
      },
    });
    let secret = "";
    const site = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      tls: { cert: c.cert, key: c.key },
      fetch: (req) => onCapaWebhook(req, secret, `${buildHook.url.origin}/build`),
    });
    try {
      const hook = await createHook(h, token, { url: `https://127.0.0.1:${site.port}/capa` });
      secret = hook.secret;
      h.clock.advance(1000);
      const e = await h.json("POST", "/v2/model-instances", { token, body: { model: "post", data: { title: "Third", slug: "third" } } });
      await h.json("POST", `/v2/model-instances/${e.body.id}/publish`, { token });
      // The signature's timestamp is the test clock's; the verifier compares it with Date.now.
      const realNow = Date.now;
      Date.now = () => h.clock.now();
      try {
        await deliver(h);
      } finally {
        Date.now = realNow;
      }
      expect(builds).toBe(1);
      const forged = await fetch(`https://127.0.0.1:${site.port}/capa`, {
        method: "POST",
        body: "{}",
        headers: { "webhook-id": "msg_x", "webhook-timestamp": "1", "webhook-signature": "v1,AAAA" },
        tls: { rejectUnauthorized: false },
      } as RequestInit);
      expect([forged.status, builds]).toEqual([401, 1]);
    } finally {
      site.stop(true);
      buildHook.stop(true);
    }
  });
});
