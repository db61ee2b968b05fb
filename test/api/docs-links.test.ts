// Issue 22, item 8: the `docs` link of an error names CAPA_DOCS_URL, or else the public URL,
// never the Host a client sends; and every /v2 refusal, a second rotation's 409 included, has a code.
import { afterAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { startApp } from "../harness.ts";
import { startServer, tempDataDir } from "../spawn.ts";

describe("the docs base", () => {
  test("CAPA_DOCS_URL, else CAPA_PUBLIC_URL, else http://HOST:PORT", () => {
    expect(loadConfig({}).docsUrl).toBe("http://127.0.0.1:3000");
    expect(loadConfig({ HOST: "0.0.0.0", PORT: "8080" }).docsUrl).toBe("http://0.0.0.0:8080");
    expect(loadConfig({ CAPA_PUBLIC_URL: "https://cms.example.org" }).docsUrl).toBe("https://cms.example.org");
    expect(loadConfig({ CAPA_PUBLIC_URL: "https://cms.example.org", CAPA_DOCS_URL: "https://docs.example.org" }).docsUrl).toBe("https://docs.example.org");
  });

  test("in process: a request to another host, or with another Host header, links the configured docs", async () => {
    const h = startApp({ docsUrl: "https://docs.example.org" });
    try {
      for (const [url, headers] of [
        ["http://cdn.example.com/api/me", {}],
        ["http://capa.test/api/me", { host: "cdn.example.com" }],
      ] as const) {
        const r = await h.capa.app.handle(new Request(url, { headers }));
        expect(r.status).toBe(401);
        expect((await r.json()).error.docs).toBe("https://docs.example.org/docs/errors/missing_key");
      }
    } finally {
      h.close();
    }
  });

  describe("over a socket", () => {
    const data = tempDataDir();
    afterAll(() => data.remove());

    test("with CAPA_DOCS_URL unset, Host: cdn.example.com gets links on CAPA_PUBLIC_URL (REST and GraphQL)", async () => {
      const server = startServer({ CAPA_DATA_DIR: data.dir, PORT: "0", CAPA_DEMO: "0", CAPA_PUBLIC_URL: "https://cms.example.org" });
      try {
        const origin = await server.listening();
        const rest = await fetch(`${origin}/api/me`, { headers: { host: "cdn.example.com" } });
        expect(rest.status).toBe(401);
        expect((await rest.json()).error.docs).toBe("https://cms.example.org/docs/errors/missing_key");
        const gql = await fetch(`${origin}/api/graphql`, {
          method: "POST",
          headers: { host: "cdn.example.com", "content-type": "application/json" },
          body: JSON.stringify({ query: "{ version }" }),
        });
        expect(gql.status).toBe(401);
        expect((await gql.json()).errors[0].extensions.docs).toBe("https://cms.example.org/docs/errors/missing_key");
      } finally {
        expect(await server.stop()).toBe(0);
      }
    });
  });
});
