// The server under test for benchmarks: the real app on a temp data dir, seeded, on a socket.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { seedBig } from "./seed.ts";

const posts = Number(process.argv[2] ?? 1000);
const authors = Number(process.argv[3] ?? 100);
const capa = createApp(testConfig(mkdtempSync(join(tmpdir(), "capa-bench-")), { rateLimitPerSecond: 1_000_000, rateLimitBurst: 1_000_000 }));
const seed = seedBig(capa, posts, authors);
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: capa.app.fetch, maxRequestBodySize: 1024 * 1024 + 1024 });
console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${server.port}`, ...seed })}`);
