// A server process for `bench media`: `serve-media.ts <image> ours` answers the public file URL
// through serveMedia (local store, variant cache); `serve-media.ts <image> bare` is the baseline,
// a bare Bun.serve of the same file.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveMedia } from "../../src/domain/media/serve.ts";
import { sniffFile } from "../../src/domain/media/sniff.ts";
import { VariantService } from "../../src/domain/media/variants.ts";
import { systemClock } from "../../src/infra/clock.ts";
import { openLocalStore } from "../../src/infra/media-store/local.ts";
import { VariantCache } from "../../src/infra/variant-cache.ts";

const [image, mode] = [process.argv[2]!, process.argv[3]];
if (mode === "bare") {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(Bun.file(image)) });
  console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${server.port}/photo.jpg` })}`);
} else {
  const dir = mkdtempSync(join(tmpdir(), "capa-bench-media-"));
  // The bench ends this process with SIGTERM; its temp folder goes with it.
  process.on("SIGTERM", () => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
  const store = await openLocalStore(join(dir, "media"));
  await store.put("proj/photo", { path: image });
  const bytes = await Bun.file(image).bytes();
  const media = {
    id: "photo",
    filename: "photo.jpg",
    ...(await sniffFile(image)),
    size: bytes.byteLength,
    width: 1600,
    height: 1067,
    checksum: new Bun.CryptoHasher("sha256").update(bytes).digest("hex"),
    focalPoint: null,
    storageKey: "proj/photo",
  };
  const variants = new VariantService({ cache: await VariantCache.open(join(dir, "variants"), 1 << 30), clock: systemClock, maxPixels: 1e8 });
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request) => serveMedia(request, media, store, { variants, client: "bench" }),
  });
  console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${server.port}/media/proj/photo/photo.jpg` })}`);
}
