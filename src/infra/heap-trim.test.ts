import { describe, expect, test } from "bun:test";
import { heapTrimmer, TRIM_GROWTH_BYTES } from "./heap-trim.ts";

/** A heap whose size the test sets; a collection leaves `live` bytes. */
function fakeHeap(start: number) {
  const heap = { size: start, live: start, collections: 0 };
  const probe = {
    size: () => heap.size,
    collect: () => {
      heap.collections++;
      heap.size = heap.live;
    },
  };
  return { heap, probe };
}

describe("heap trim", () => {
  test("an idle heap, or one that grew less than the threshold, is never collected", () => {
    const { heap, probe } = fakeHeap(10_000_000);
    const tick = heapTrimmer(probe);
    expect(tick()).toBe(false);
    heap.size += TRIM_GROWTH_BYTES - 1;
    expect(tick()).toBe(false);
    expect(heap.collections).toBe(0);
  });

  test("a heap that grew by the threshold is collected once, and measured again from what the collection left", () => {
    const { heap, probe } = fakeHeap(10_000_000);
    const tick = heapTrimmer(probe);
    heap.live = 11_000_000;
    heap.size = 10_000_000 + TRIM_GROWTH_BYTES;
    expect(tick()).toBe(true);
    expect(heap.collections).toBe(1);
    expect(heap.size).toBe(11_000_000);
    // The next look compares with the 11 MB the collection left, not the first 10 MB.
    heap.size = 11_000_000 + TRIM_GROWTH_BYTES - 1;
    expect(tick()).toBe(false);
    heap.size = 11_000_000 + TRIM_GROWTH_BYTES;
    expect(tick()).toBe(true);
    expect(heap.collections).toBe(2);
  });

  test("the growth threshold can be set", () => {
    const { heap, probe } = fakeHeap(0);
    const tick = heapTrimmer(probe, 100);
    heap.size = 99;
    expect(tick()).toBe(false);
    heap.size = 100;
    expect(tick()).toBe(true);
  });
});
