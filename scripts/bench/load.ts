// A small HTTP load generator on loopback: `connections` concurrent keep-alive request loops for
// a bounded time. Both the server under test and the baseline are measured with it in the same
// run, so the ratio holds even on a noisy machine.

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
}

/** Sends requests (GET, or `init`'s method and body) to `url` for `seconds` with `connections` loops; latencies in ms. */
export async function load(
  url: string,
  headers: Record<string, string>,
  connections = 32,
  seconds = 5,
  init: { method?: string; body?: string } = {},
): Promise<LoadResult> {
  const lat: number[] = [];
  const statuses: Record<number, number> = {};
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      const r = await fetch(url, { ...init, headers });
      await r.arrayBuffer();
      lat.push(performance.now() - t);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const took = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(lat.length * p))] ?? 0;
  return { requests: lat.length, rps: lat.length / took, p50: q(0.5), p99: q(0.99), statuses };
}

/** Median of a list of numbers. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
}

/** Spawns `bun <script> <args>` and waits for it to print `READY <json>`; returns the process and that JSON. */
export async function spawnServer(script: string, args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, script, ...args], { stdout: "pipe", stderr: "inherit", env: { ...process.env, ...env } });
  const reader = proc.stdout.getReader();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${script} exited before it was ready`);
    buf += new TextDecoder().decode(value);
    const m = /READY (.*)\n/.exec(buf);
    if (m) {
      reader.releaseLock();
      return { proc, info: JSON.parse(m[1]!) };
    }
  }
}
