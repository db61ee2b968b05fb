// What CORS costs a cached production read (issue 23): the same path of one server, read with
// and without an Origin header in alternating rounds, so the ratio is taken in one run on one
// process. The target is at least 0.97x: the headers are two strings put on the answer.
import type { Figure } from "./entries.ts";
import { load, median, spawnServer } from "./load.ts";
import { join } from "node:path";

const fmt = (n: number, d = 2) => n.toFixed(d);

export async function benchCors(): Promise<Figure[]> {
  const app = await spawnServer(join(import.meta.dir, "serve-app.ts"), ["2000", "50"]);
  try {
    const url = `${app.info.url}/api/entries/post?limit=25`;
    const plain = { "accept-encoding": "identity", "x-api-key": app.info.prodKey as string };
    const withOrigin = { ...plain, origin: "https://site.example" };
    const first = await fetch(url, { headers: withOrigin });
    if (first.headers.get("access-control-allow-origin") !== "https://site.example") throw new Error("no CORS headers on the answer");
    await first.arrayBuffer();
    await load(url, plain, 16, 1);
    await load(url, withOrigin, 16, 1);
    const ours: number[] = [];
    const base: number[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < 6; i++) {
      const a = await load(url, withOrigin, 32, 2);
      const b = await load(url, plain, 32, 2);
      ours.push(a.rps);
      base.push(b.rps);
      ratios.push(a.rps / b.rps);
    }
    return [
      {
        figure: "cors: cached production read with Origin vs without, req/s, medians of 6 alternating 2 s rounds (target ratio >= 0.97)",
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
