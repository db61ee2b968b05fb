// sharp, loaded on the first image (not at start: libvips and its threads are about 25 MB of an
// idle server's RSS, docs/performance.md) and set up for a long-running server:
// - no operation cache: libvips keeps the last 100 operations with their images, and memory a
//   decoder allocates itself (a GIF's whole frame, about 440 MB at 100 megapixels) is not counted
//   against the cache's 50 MB, so one upload of a 35-byte GIF kept 400 MB for good;
// - one libvips thread per image: the render queue (infra/render-queue.ts) decides how many images
//   are worked on at once, and more threads per image would multiply the per-thread buffers the
//   decode budget does not see. sharp already picks 1 on glibc without jemalloc; this makes it so
//   on every build.
import type { default as Sharp } from "sharp";

/** The sharp function, set up for a server (idempotent and cheap; the module system loads sharp once). */
export async function loadSharp(): Promise<typeof Sharp> {
  const { default: sharp } = await import("sharp");
  sharp.cache(false);
  sharp.concurrency(1);
  return sharp;
}
