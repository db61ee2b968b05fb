// `bench openapi`: a cached GET /api/openapi.json against a cached production entries read
// (issue 23: at least 0.5x), over a socket, measured back to back in one run. Both answers come
// from an in-process cache behind the same /api shell, so the ratio shows what serving a larger
// document costs beside a page of entries.
import { join } from "node:path";
import { load, median, spawnServer } from "./load.ts";
import type { Figure } from "./entries.ts";

const fmt = (n: number, d = 2) => n.toFixed(d);

export async function benchOpenapi(): Promise<Figure[]> {
  const app = await spawnServer(join(import.meta.dir, "serve-app.ts"), ["2000", "50"]);
  const headers = { "accept-encoding": "identity", "x-api-key": app.info.prodKey as string };
  const docUrl = `${app.info.url}/api/openapi.json`;
  const entriesUrl = `${app.info.url}/api/entries/post?limit=25`;
  try {
    const docBytes = (await (await fetch(docUrl, { headers })).arrayBuffer()).byteLength;
    const entryBytes = (await (await fetch(entriesUrl, { headers })).arrayBuffer()).byteLength;
    await load(docUrl, headers, 16, 1);
    await load(entriesUrl, headers, 16, 1);
    // Six alternating 2 s rounds; the medians resist a burst of other work on the machine.
    const docs: number[] = [];
    const entries: number[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < 6; i++) {
      const a = await load(docUrl, headers, 32, 2);
      const b = await load(entriesUrl, headers, 32, 2);
      docs.push(a.rps);
      entries.push(b.rps);
      ratios.push(a.rps / b.rps);
    }
    return [
      {
        figure: `openapi: cached GET /api/openapi.json (${docBytes} B) vs a cached entries read (${entryBytes} B), req/s, medians of 6 alternating 2 s rounds (target ratio >= 0.5)`,
        value: fmt(median(docs), 0),
        baseline: `${fmt(median(entries), 0)} (GET /api/entries/post?limit=25)`,
        ratio: fmt(median(ratios)),
      },
    ];
  } finally {
    app.proc.kill();
  }
}

if (import.meta.main) {
  for (const f of await benchOpenapi()) console.log(`| ${f.figure} | ${f.value} | ${f.baseline} | ${f.ratio} |`);
}
