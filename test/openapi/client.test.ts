// A site builder's path (decisions.md 12): the server started as an operator starts it (the demo
// project and its printed keys), openapi-typescript turns the demo key's /api/openapi.json into
// types, and a small client on openapi-fetch, type-checked by the TypeScript compiler as it is
// written, reads a list and an item through a real socket.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeCapaTypes } from "../../docs/snippets/openapi-types.ts";
import { ROOT, startServer, tempDataDir, type ServerProc } from "../spawn.ts";

const data = tempDataDir();
const work = mkdtempSync(join(tmpdir(), "capa-openapi-client-"));
let server: ServerProc;
let origin: string;
let key: string;

beforeAll(async () => {
  server = startServer({ CAPA_DATA_DIR: data.dir, PORT: "0" });
  origin = await server.listening(20_000);
  key = /svc_live_[0-9A-Za-z]{32}/.exec(server.output())![0];
  // The client resolves openapi-fetch from the repository's packages, as a site would from its own.
  symlinkSync(join(ROOT, "node_modules"), join(work, "node_modules"), "dir");
});
afterAll(async () => {
  await server.stop();
  data.remove();
  rmSync(work, { recursive: true, force: true });
});

/** The client a site builder writes (docs/site-builders.md shows this file): typed by the generated `paths`, nothing cast. */
const CLIENT = join(ROOT, "docs", "snippets", "openapi-client.ts");

/** What a wrong reading of the types would look like: the compiler must refuse it. */
const WRONG = `import createClient from "openapi-fetch";
import type { paths } from "./capa";

const client = createClient<paths>({ baseUrl: "http://localhost" });
const list = await client.GET("/api/entries/post");
const n: number = list.data!.data[0]!.title;
await client.GET("/api/entries/no-such-model");
console.log(n);
`;

function tsc(files: string[]) {
  writeFileSync(
    join(work, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "bundler",
        lib: ["ES2022", "DOM"],
        // Bun's types as this repository installs them (bun-types, aliased: docs/dependencies.md).
        types: ["bun-types-dev"],
        skipLibCheck: true,
      },
      files,
    }),
  );
  const p = Bun.spawnSync([join(ROOT, "node_modules/.bin/tsc"), "-p", join(work, "tsconfig.json")], { cwd: work });
  return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
}

describe("openapi-typescript and openapi-fetch on the demo key's document", () => {
  test("types generated from /api/openapi.json type-check a client that reads a list and an item", async () => {
    // docs/snippets/openapi-types.ts writes the types, as a site's build would.
    await writeCapaTypes(origin, key, join(work, "capa.d.ts"));
    const types = readFileSync(join(work, "capa.d.ts"), "utf8");
    expect(types).toContain('"/api/entries/post": {');
    expect(types).toContain('"/api/entries/post/{id}": {');
    writeFileSync(join(work, "client.ts"), readFileSync(CLIENT, "utf8"));
    writeFileSync(join(work, "wrong.ts"), WRONG);
    expect(tsc(["client.ts"])).toEqual({ code: 0, out: "" });
    const wrong = tsc(["wrong.ts"]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.out).toContain("wrong.ts(6,7): error TS2322");
    // A path the document does not hold is no route of the client.
    expect(wrong.out).toContain("wrong.ts(7,14): error TS2554");
  }, 60_000);

  test("the client reads the real server: the values a plain fetch sees", async () => {
    const run = Bun.spawnSync([process.execPath, join(work, "client.ts")], { cwd: work, env: { ...process.env, CAPA_URL: origin, CAPA_KEY: key } });
    expect(run.stderr.toString()).toBe("");
    const got = JSON.parse(run.stdout.toString());
    const plain = await (await fetch(`${origin}/api/entries/post?sort=title&limit=2&select=title,slug,author(name)`, { headers: { "x-api-key": key } })).json();
    const item = await (await fetch(`${origin}/api/entries/post/${plain.data[0].id}`, { headers: { "x-api-key": key } })).json();
    expect(got).toEqual({
      titles: plain.data.map((p: { title: string }) => p.title),
      authorName: plain.data[0].author.name,
      id: plain.data[0].id,
      slug: item.data.slug,
      version: "2026-10-01",
      next: plain.meta.page.next,
    });
    expect(got.titles).toEqual(["A first look at api keys and scopes", "A first look at caching at the edge"]);
    expect(typeof got.authorName).toBe("string");
    expect(got.next).toEqual(expect.any(String));
  }, 30_000);
});
