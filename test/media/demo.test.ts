// The demo project's pictures are made on this machine at first start (no internet): the real
// server process seeds them into the media library, entries reference them, and the public file
// URL serves real PNGs that sharp decodes.
import { afterAll, expect, test } from "bun:test";
import sharp from "sharp";
import { startServer, tempDataDir } from "../spawn.ts";

const data = tempDataDir();
afterAll(() => data.remove());

test("first start makes the demo's images locally and entries read them from the library", async () => {
  const server = startServer({ CAPA_DATA_DIR: data.dir, PORT: "0" });
  try {
    const origin = await server.listening();
    const key = /svc_live_[0-9A-Za-z]{32}/.exec(server.output())![0];
    const r = await fetch(`${origin}/api/entries/post?limit=5`, { headers: { "x-api-key": key } });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { data: { title: string; cover: any }[]; meta: Record<string, unknown> };
    expect(body.meta.missingReferences).toBeUndefined();
    const cover = body.data[0]!.cover;
    expect(cover).toEqual({
      id: expect.any(String),
      url: expect.stringMatching(/\/media\/[^/]+\/[^/]+\/post-\d+\.png$/),
      alt: body.data[0]!.title,
      type: "image",
      width: 480,
      height: 320,
    });
    const file = await fetch(`${origin}${new URL(cover.url).pathname}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    const meta = await sharp(new Uint8Array(await file.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 480, 320]);
    expect(server.output()).not.toContain("picsum");
  } finally {
    expect(await server.stop()).toBe(0);
  }
  expect(server.errors()).toBe("");
});
