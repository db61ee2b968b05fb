// Bounds the memory a busy thread keeps. Under steady load JSC collects young objects often and
// the whole heap rarely, so the heap a thread keeps, and the allocator pages under it, grow with
// throughput: the main thread's heap rose by about 7 MB a second under the bench's uncached reads
// and the server's RSS peaked at 178-206 MiB. One full collection a second, only on a thread whose
// heap grew since the last one, kept the peak at 143-146 MiB at the same throughput (collections
// four times a second: 137-141 MiB for 5% fewer reads). An idle thread's heap does not grow, so it
// is never collected: no work is done for a server nobody reads. The main thread (server.ts) and
// every read worker (domain/reads/worker.ts) run one each; tests that build the app do not.
import { heapSize } from "bun:jsc";

/** How often a thread looks at its heap. */
export const TRIM_EVERY_MS = 1000;
/** How much the heap grows before a full collection: a little above what an idle second adds. */
export const TRIM_GROWTH_BYTES = 1024 * 1024;

export interface HeapProbe {
  /** The heap's size in bytes: its live objects and the garbage not yet collected. */
  size: () => number;
  /** A full, synchronous collection. */
  collect: () => void;
}

/** One look at the heap: collects when it grew by `growth` since the last collection; says whether it did. */
export function heapTrimmer(probe: HeapProbe, growth = TRIM_GROWTH_BYTES): () => boolean {
  let base = probe.size();
  return () => {
    if (probe.size() - base < growth) return false;
    probe.collect();
    base = probe.size();
    return true;
  };
}

/** Starts the trim of the calling thread; the answer stops it. The timer never keeps a thread alive. */
export function startHeapTrim(probe: HeapProbe = { size: heapSize, collect: () => Bun.gc(true) }): () => void {
  const timer = setInterval(heapTrimmer(probe), TRIM_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * A full collection, then JSC's shrink: it drops compiled code and returns free pages to the system.
 * Run once after start, when the garbage of start-up is all there is; code still in use is compiled
 * again on its next call.
 */
export function releaseStartupMemory(): void {
  Bun.gc(true);
  Bun.shrink();
}
