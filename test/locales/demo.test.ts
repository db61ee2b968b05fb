// The demo project in two locales (issue 28 item 9), read over a socket from the real server as
// an operator starts it: German falls back to English; the categories and two posts read in
// German with a production key, a third post's German is a draft only a development key sees.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, tempDataDir, type ServerProc } from "../spawn.ts";

const data = tempDataDir();
let server: ServerProc;
let origin: string;
const keys = { prod: "", dev: "" };

beforeAll(async () => {
  server = startServer({ CAPA_DATA_DIR: data.dir, PORT: "0" });
  origin = await server.listening();
  const out = server.output();
  keys.prod = /svc_live_[0-9A-Za-z]{32}/.exec(out)![0];
  keys.dev = /svc_test_[0-9A-Za-z]{32}/.exec(out)![0];
}, 60_000);
afterAll(async () => {
  await server.stop();
  data.remove();
});

const read = async (path: string, key: string) => {
  const r = await fetch(`${origin}${path}`, { headers: { "x-api-key": key } });
  return { status: r.status, body: (await r.json()) as any };
};

describe("the demo project", () => {
  test("has German, falling back to English", async () => {
    const me = await read("/api/entries/category?locale=de&select=name,slug&sort=slug", keys.prod);
    expect(me.body.data.map((c: any) => [c.slug, c.name])).toEqual([
      ["company", "Unternehmen"],
      ["design", "Gestaltung"],
      ["engineering", "Technik"],
      ["guides", "Anleitungen"],
      ["product", "Produkt"],
    ]);
    expect(me.body.meta.locale).toBe("de");
  });

  test("two posts read in German to a production key, a third only as a development key's draft; the rest fall back", async () => {
    const q = `/api/entries/post?locale=de&select=title,$locales&sort=title&where=${encodeURIComponent(JSON.stringify({ $locales: { has: "de" } }))}`;
    expect((await read(q, keys.prod)).body.data.map((x: any) => x.title)).toEqual([
      "Ein erster Blick auf Entwurf und Veröffentlichung",
      "Ein erster Blick auf Webhooks, denen man vertrauen kann",
    ]);
    expect((await read(q, keys.dev)).body.data.map((x: any) => x.title)).toEqual([
      "Ein erster Blick auf API-Schlüssel und Berechtigungen",
      "Ein erster Blick auf Entwurf und Veröffentlichung",
      "Ein erster Blick auf Webhooks, denen man vertrauen kann",
    ]);
    const fallback = await read("/api/entries/post?locale=de&select=title&sort=title&limit=1", keys.prod);
    expect([fallback.body.data[0].title, fallback.body.meta.fallbacks]).toEqual([
      "A first look at api keys and scopes",
      [{ id: fallback.body.data[0].id, field: "title", locale: "en" }],
    ]);
  });
});
