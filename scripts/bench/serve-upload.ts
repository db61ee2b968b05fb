// A server process for `bench media`'s upload figure: each POST streams through receiveUpload into
// a temp folder while RSS is sampled; the answer is the file's size and the RSS before and at peak.
// `serve-upload.ts drain` is the baseline: the same server reading the body and dropping it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { receiveUpload } from "../../src/domain/media/intake.ts";

const dir = mkdtempSync(join(tmpdir(), "capa-bench-upload-"));
process.on("SIGTERM", () => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  maxRequestBodySize: 8 * 1024 ** 3,
  async fetch(request) {
    Bun.gc(true);
    const start = process.memoryUsage.rss();
    let peak = start;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 20);
    try {
      if (process.argv[2] === "drain") {
        let size = 0;
        for await (const chunk of request.body!) size += chunk.byteLength;
        return Response.json({ size, start, peak: Math.max(peak, process.memoryUsage.rss()) });
      }
      const up = await receiveUpload(request, { dir, maxBytes: 8 * 1024 ** 3, maxFiles: 1 });
      peak = Math.max(peak, process.memoryUsage.rss());
      const size = up.files[0]!.size;
      await up.discard();
      return Response.json({ size, start, peak });
    } finally {
      clearInterval(sampler);
    }
  },
});
console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${server.port}/v2/media` })}`);
