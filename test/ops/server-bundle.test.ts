// The server `npm start` runs is a bundle (scripts/build-server.ts), not the sources the rest of
// the suite runs. This builds one into a temp folder two levels below the root (where
// src/infra/paths.ts expects it) and drives it over a socket through everything that depends on
// where files are: the committed migrations, the admin app's build, the read pool's worker, the
// Litestream binary, and the libraries loaded on first use (GraphQL's engine, sharp, file-type,
// music-metadata).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildServer } from "../../scripts/build-server.ts";
import { png64, wav } from "../media/fixtures.ts";
import type { Health } from "./replica.ts";
import { ROOT, startServer, tempDataDir, type ServerProc } from "../spawn.ts";

const outdir = join(ROOT, ".tmp", `server-bundle-${process.pid}`);
const data = tempDataDir();
let server: ServerProc;
let origin = "";
let banner = "";

beforeAll(async () => {
  mkdirSync(join(ROOT, ".tmp"), { recursive: true });
  const entry = await buildServer({ outdir, force: true, quiet: true });
  expect(entry).toBe(join(outdir, "main.js"));
  expect(existsSync(join(outdir, "read-worker.js"))).toBe(true);
  server = startServer(
    {
      CAPA_DATA_DIR: join(data.dir, "data"),
      CAPA_REPLICA_URL: `file://${join(data.dir, "replica")}`,
      PORT: "0",
      CAPA_ADMIN_EMAIL: "bundle@example.com",
      CAPA_ADMIN_PASSWORD: "bundle-password-1",
    },
    entry,
  );
  origin = await server.listening(20_000);
  banner = server.output();
});

afterAll(async () => {
  await server?.stop();
  data.remove();
  rmSync(outdir, { recursive: true, force: true });
});

const key = (kind: "Production" | "Development") => new RegExp(`${kind} key +(svc_\\w+)`).exec(banner)![1]!;

describe("the server bundle", () => {
  test("a first start migrates the files and seeds the demo project", async () => {
    expect(banner).toContain("Demo project      Demo (slug demo");
    const r = await fetch(`${origin}/api/entries/author?limit=1&fields=name`, { headers: { "x-api-key": key("Development") } });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { data: { name: string }[] };
    expect(body.data.map((e) => Object.keys(e).includes("name"))).toEqual([true]);
  });

  test("GraphQL loads its engine on first use and runs a list with a relation", async () => {
    // A list with arguments and a relation: the bundle once held two copies of graphql-js
    // (ESM and CommonJS), and such a query answered 500 ("another module or realm").
    const query = "{ post(first: 2, sort: [title_ASC]) { nodes { title author { name } } } }";
    const r = await fetch(`${origin}/api/graphql`, {
      method: "POST",
      headers: { "x-api-key": key("Development"), "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    const body = (await r.json()) as { data: { post: { nodes: { title: string; author: { name: string } | null }[] } }; errors?: unknown };
    expect([r.status, body.errors, body.data.post.nodes.length]).toEqual([200, undefined, 2]);
    // The same two posts over REST, with the author expanded.
    const rest = await fetch(`${origin}/api/entries/post?limit=2&sort=title&select=title,author(name)`, { headers: { "x-api-key": key("Development") } });
    const restBody = (await rest.json()) as { data: { title: string; author: { name: string } | null }[] };
    expect(body.data.post.nodes).toEqual(restBody.data.map((e) => ({ title: e.title, author: e.author ? { name: e.author.name } : null })));
  });

  test("the admin app's page is served from admin/dist", async () => {
    const r = await fetch(`${origin}/admin/`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('<script type="module" src="/admin/assets/');
  });

  test("uploads load file-type, sharp and music-metadata", async () => {
    const login = await fetch(`${origin}/v2/user/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bundle@example.com", password: "bundle-password-1" }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const project = /\(slug demo, id ([0-9a-f-]+)\)/.exec(banner)![1]!;
    const upload = async (bytes: Uint8Array, name: string) => {
      const fd = new FormData();
      fd.append("file", new Blob([bytes as BlobPart]), name);
      const r = await fetch(`${origin}/v2/media`, { method: "POST", headers: { authorization: `Bearer ${accessToken}`, "x-svc-project": project }, body: fd });
      return [r.status, (await r.json()) as { kind: string; mimeType: string; width: number | null; height: number | null; duration: number | null }] as const;
    };
    const [pngStatus, picture] = await upload(await png64(), "square.png");
    expect([pngStatus, picture.kind, picture.mimeType, picture.width, picture.height]).toEqual([201, "image", "image/png", 64, 48]);
    const [wavStatus, sound] = await upload(wav(2), "silence.wav");
    expect([wavStatus, sound.kind, sound.duration]).toEqual([201, "audio", 2]);
  });

  test("Litestream runs from the bundle: the control file and the demo project are watched", async () => {
    let h: Health | undefined;
    for (let i = 0; i < 100 && h?.litestream.state !== "running"; i++) {
      h = (await (await fetch(`${origin}/healthz`)).json()) as Health;
      if (h.litestream.state !== "running") await Bun.sleep(100);
    }
    expect([h!.status, h!.litestream.state, h!.litestream.databases, h!.litestream.lastError]).toEqual(["ok", "running", 2, null]);
  });

  test("it stops on SIGTERM with exit code 0 and wrote nothing to stderr", async () => {
    expect(await server.stop()).toBe(0);
    expect(server.errors()).toBe("");
  });
});
