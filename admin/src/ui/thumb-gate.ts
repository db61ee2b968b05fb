// Fresh thumbnails at the pace the server makes them. Each new variant costs its client a token
// of a bucket (burst 20, 2 a second; src/domain/media/variants.ts), so a grid of files nobody
// has previewed yet (the library dialog on first open) used to ask for all of them at once and
// collect a 429 for most. This keeps a bucket of the same shape a little under the server's,
// and lets a thumbnail ask only when a token is free. A picture this page has asked for before
// costs nothing: the browser has it.
const BURST = 16;
const PER_SECOND = 2;

let tokens = BURST;
let at = performance.now();
const asked = new Set<string>();
const waiting: { src: string; go(): void }[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;

function refill() {
  const now = performance.now();
  tokens = Math.min(BURST, tokens + ((now - at) / 1000) * PER_SECOND);
  at = now;
}

function drain() {
  timer = null;
  refill();
  while (waiting.length > 0 && (asked.has(waiting[0]!.src) || tokens >= 1)) {
    const w = waiting.shift()!;
    if (!asked.has(w.src)) {
      tokens -= 1;
      asked.add(w.src);
    }
    w.go();
  }
  if (waiting.length > 0) timer = setTimeout(drain, 1000 / PER_SECOND);
}

/** Whether `src` may be asked for now (taking a token if it is new). */
export function admit(src: string): boolean {
  if (asked.has(src)) return true;
  refill();
  if (waiting.length > 0 || tokens < 1) return false;
  tokens -= 1;
  asked.add(src);
  return true;
}

/** Calls `go` when `src` may be asked for; the answer cancels the wait. */
export function whenAdmitted(src: string, go: () => void): () => void {
  const w = { src, go };
  waiting.push(w);
  if (!timer) timer = setTimeout(drain, 1000 / PER_SECOND);
  return () => {
    const i = waiting.indexOf(w);
    if (i >= 0) waiting.splice(i, 1);
  };
}
