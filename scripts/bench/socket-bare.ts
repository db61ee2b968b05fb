// `bench socket`, the cached-read baseline: a bare Bun.serve answering fixed bytes (Capa's own
// answers, one file per scenario, named in a manifest) with a JSON content type. Routes:
// `/<scenario>/prod`. Prints `READY <json>` once it listens.
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Record<string, string>;
const bodies = new Map<string, Uint8Array<ArrayBuffer>>();
for (const [path, file] of Object.entries(manifest)) bodies.set(path, new Uint8Array(readFileSync(file)));
const headers = { "content-type": "application/json", "cache-control": "public, max-age=60" };
const server = Bun.serve({
  port: 0,
  reusePort: false,
  hostname: "127.0.0.1",
  fetch(req) {
    const body = bodies.get(new URL(req.url).pathname);
    return body ? new Response(body, { headers }) : new Response("not found", { status: 404 });
  },
});
console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${server.port}` })}`);
