// Issue 23, item 2: a site on another origin reads Capa in a real Chromium with web security on,
// as a single-page app does. A small page is served by a second server (another port, so another
// origin); from it the browser reads a REST list and an item, revalidates with If-None-Match,
// reads ETag and Svc-Version, runs GraphQL by POST and GET, reads the 403 of a key bound to
// another origin, and draws a public image into a canvas and reads its pixels. What CORS does not
// grant stays blocked: /v2 and a request header outside the preflight's list.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { startBrowserEnv, v2, type BrowserEnv } from "../admin/browser.ts";

let env: BrowserEnv;
let site: ReturnType<typeof Bun.serve>;
let key: string;
let bound: string;
let mediaUrl: string;
let entryId: string;

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A site</title></head>
<body><h1>A site that reads Capa</h1><canvas width="4" height="4"></canvas></body></html>`;

beforeAll(async () => {
  env = await startBrowserEnv();
  await v2(env, "POST", "/v2/models", { name: "Notes", namespace: "notes", fields: [{ namespace: "title", type: "string" }] });
  for (const title of ["Beta", "Alpha"]) {
    const e = await v2(env, "POST", "/v2/model-instances", { model: "notes", data: { title } });
    await v2(env, "POST", `/v2/model-instances/${e.id}/publish`);
    if (title === "Alpha") entryId = e.id;
  }
  // docs/snippets/read-rest.ts reads the demo's post model; this entry is its newest.
  const post = await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: "From the docs", slug: "from-the-docs" } });
  await v2(env, "POST", `/v2/model-instances/${post.id}/publish`);
  key = (await v2(env, "POST", "/v2/tenants/api-keys", { scopes: ["instance:read"], name: "site" })).apiKey;
  const b = await v2(env, "POST", "/v2/tenants/api-keys", { scopes: ["instance:read"], name: "elsewhere" });
  await v2(env, "PATCH", `/v2/tenants/api-keys/${b.id}/allowed-origins`, { allowedOrigins: ["https://elsewhere.example"] });
  bound = b.apiKey;
  // A 4x4 image of one colour, uploaded to the library: its public URL is what a site puts in <img>.
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 200, g: 30, b: 40 } } })
    .png()
    .toBuffer();
  const fd = new FormData();
  fd.append("file", new Blob([png]), "swatch.png");
  const up = await fetch(`${env.origin}/v2/media`, {
    method: "POST",
    headers: { authorization: `Bearer ${await env.token()}`, "x-svc-project": env.demoProjectId },
    body: fd,
  });
  expect(up.status).toBe(201);
  mediaUrl = `${env.origin}${new URL(((await up.json()) as { url: string }).url).pathname}`;
  site = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }) });
});
afterAll(async () => {
  site?.stop(true);
  await env?.close();
});

describe("a page on another origin, web security on", () => {
  test("reads REST and GraphQL, revalidates, reads a refusal and an image's pixels; /v2 and unlisted headers stay blocked", async () => {
    const page = await env.page();
    await page.goto(`${site.url.origin}/`);
    await page.getByRole("heading", { name: "A site that reads Capa" }).waitFor();
    expect(new URL(page.url()).origin).not.toBe(env.origin);
    const r = await page.evaluate(
      async ({ api, key, bound, mediaUrl, entryId }) => {
        const h = { "x-api-key": key };
        const list = await fetch(`${api}/api/entries/notes?sort=title&select=title`, { headers: h, cache: "no-store" });
        const listBody = await list.json();
        const etag = list.headers.get("etag");
        const item = await fetch(`${api}/api/entries/notes/${entryId}?select=title`, { headers: h, cache: "no-store" });
        const again = await fetch(`${api}/api/entries/notes?sort=title&select=title`, { headers: { ...h, "if-none-match": etag ?? "" }, cache: "no-store" });
        const query = "{ notes(sort: [title_ASC]) { nodes { title } } }";
        const post = await fetch(`${api}/api/graphql`, {
          method: "POST",
          headers: { ...h, "content-type": "application/json" },
          body: JSON.stringify({ query }),
        });
        const get = await fetch(`${api}/api/graphql?query=${encodeURIComponent(query)}`, { headers: h });
        const refused = await fetch(`${api}/api/entries/notes`, { headers: { "x-api-key": bound } });
        const img = new Image();
        img.crossOrigin = "anonymous";
        img.src = mediaUrl;
        await img.decode();
        const ctx = document.querySelector("canvas")!.getContext("2d")!;
        ctx.drawImage(img, 0, 0);
        const pixel = Array.from(ctx.getImageData(1, 1, 1, 1).data);
        const blocked = async (url: string, init?: RequestInit) => {
          try {
            const res = await fetch(url, init);
            return `read ${res.status}`;
          } catch (e) {
            return (e as Error).name;
          }
        };
        return {
          list: {
            status: list.status,
            titles: listBody.data.map((x: { title: string }) => x.title),
            etag: etag !== null,
            version: list.headers.get("svc-version"),
          },
          item: { status: item.status, title: (await item.json()).data.title, keyId: item.headers.get("svc-key-id") !== null },
          again: { status: again.status, etag: again.headers.get("etag") === etag },
          post: { status: post.status, type: post.headers.get("content-type"), body: await post.json() },
          get: { status: get.status, body: await get.json() },
          refused: { status: refused.status, code: (await refused.json()).error.code },
          pixel,
          v2: await blocked(`${api}/v2/projects`),
          customHeader: await blocked(`${api}/api/entries/notes`, { headers: { ...h, "x-custom": "1" } }),
        };
      },
      { api: env.origin, key, bound, mediaUrl, entryId },
    );
    expect(r).toEqual({
      list: { status: 200, titles: ["Alpha", "Beta"], etag: true, version: "2026-10-01" },
      item: { status: 200, title: "Alpha", keyId: true },
      again: { status: 304, etag: true },
      post: {
        status: 200,
        // fetch sends Accept: */*, which does not prefer the GraphQL media type.
        type: "application/json",
        body: {
          data: { notes: { nodes: [{ title: "Alpha" }, { title: "Beta" }] } },
          extensions: { cost: { requestedQueryCost: 25, actualQueryCost: 2, budget: { counted: 25, limit: 5000 } } },
        },
      },
      get: {
        status: 200,
        body: {
          data: { notes: { nodes: [{ title: "Alpha" }, { title: "Beta" }] } },
          extensions: { cost: { requestedQueryCost: 25, actualQueryCost: 2, budget: { counted: 25, limit: 5000 } } },
        },
      },
      refused: { status: 403, code: "origin_refused" },
      pixel: [200, 30, 40, 255],
      v2: "TypeError",
      customHeader: "TypeError",
    });
  });
});

describe("docs/site-builders.md in a page", () => {
  test("read-rest.ts runs as written in a page on another origin", async () => {
    const source = await Bun.file(new URL("../../docs/snippets/read-rest.ts", import.meta.url)).text();
    const js = new Bun.Transpiler({ loader: "ts" }).transformSync(source);
    const page = await env.page();
    await page.goto(`${site.url.origin}/`);
    // The snippet as a module; its exports are handed to the test through window.
    await page.addScriptTag({ type: "module", content: `${js}\nwindow.snippet = { readPosts, readPost };`.replace(/^export /gm, "") });
    await page.waitForFunction(() => "snippet" in window);
    const r = await page.evaluate(
      async ({ api, key }) => {
        const s = (
          window as unknown as { snippet: { readPosts(a: string, k: string): Promise<{ posts: { title: string; slug: string }[]; next: string | null }> } }
        ).snippet;
        const { posts, next } = await s.readPosts(api, key);
        return { titles: posts.map((p) => [p.title, p.slug]), next };
      },
      { api: env.origin, key },
    );
    // The same function run by the test itself, as a server would, reads the same page.
    const { readPosts } = await import("../../docs/snippets/read-rest.ts");
    const here = await readPosts(env.origin, key);
    expect(r).toEqual({ titles: here.posts.map((p) => [p.title, p.slug]), next: here.next });
    expect(r.titles[0]).toEqual(["From the docs", "from-the-docs"]);
  });
});

describe("the launcher", () => {
  test("drops by name the arguments of @sparticuz/chromium that weaken web security", async () => {
    const chromium = (await import("@sparticuz/chromium")).default;
    const { safeArgs, WEAKENING_ARGS } = await import("../../scripts/chromium.ts");
    // They are there to drop: without the filter the browser would read /v2 from any page.
    expect(chromium.args.filter((a) => WEAKENING_ARGS.includes(a)).sort()).toEqual(["--allow-running-insecure-content", "--disable-web-security"]);
    expect(safeArgs().filter((a) => /web-security|insecure-content/.test(a))).toEqual([]);
    expect(safeArgs().length).toBe(chromium.args.length - 2);
  });
});
