// What CORS costs a cached production read (issue 23): the same path of one server read with and
// without an Origin header, in alternating rounds of wrk (a C client, so parsing the two extra
// answer headers costs the client next to nothing), the ratio taken in one run on one process.
// The target is at least 0.97x: the headers are two strings put on the answer.
import { join } from "node:path";
import type { Figure } from "./entries.ts";
import { median, spawnServer } from "./load.ts";
import { ensureWrk, wrk } from "./socket-wrk.ts";

const fmt = (n: number, d = 2) => n.toFixed(d);

export async function benchCors(): Promise<Figure[]> {
  const { bin } = ensureWrk();
  const app = await spawnServer(join(import.meta.dir, "serve-app.ts"), ["2000", "50"]);
  try {
    const url = `${app.info.url}/api/entries/post?limit=25`;
    const plain = { "accept-encoding": "identity", "x-api-key": app.info.prodKey as string };
    const withOrigin = { ...plain, origin: "https://site.example" };
    const first = await fetch(url, { headers: withOrigin });
    if (first.headers.get("access-control-allow-origin") !== "https://site.example") throw new Error("no CORS headers on the answer");
    await first.arrayBuffer();
    const run = (headers: Record<string, string>, seconds: number) => wrk(bin, url, { method: "GET", headers, body: null }, seconds);
    await run(plain, 1);
    await run(withOrigin, 1);
    const ours: number[] = [];
    const base: number[] = [];
    const ratios: number[] = [];
    // Ten alternating 2 s rounds, the order flipped each time; medians resist a burst of other work.
    for (let i = 0; i < 10; i++) {
      const [a, b] = i % 2 === 0 ? [await run(withOrigin, 2), await run(plain, 2)] : [null, await run(plain, 2)];
      const withO = a ?? (await run(withOrigin, 2));
      ours.push(withO.rps);
      base.push(b.rps);
      ratios.push(withO.rps / b.rps);
    }
    return [
      {
        figure: "cors: cached production read with Origin vs without, req/s under wrk, medians of 10 alternating 2 s rounds (target ratio >= 0.97)",
        value: fmt(median(ours), 0),
        baseline: `${fmt(median(base), 0)} (no Origin)`,
        ratio: fmt(median(ratios)),
      },
    ];
  } finally {
    app.proc.kill();
  }
}

if (import.meta.main) {
  for (const f of await benchCors()) console.log(`| ${f.figure} | ${f.value} | ${f.baseline} | ${f.ratio} |`);
}
