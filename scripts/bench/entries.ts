// `bench entries`: keyset paging cost at depth, a filtered and sorted read with a relation
// expanded (server-side, in process), and cached production throughput against a bare Bun.serve.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { seedBig } from "./seed.ts";
import { load, median, spawnServer } from "./load.ts";

export interface Figure {
  figure: string;
  value: string;
  baseline: string;
  ratio: string;
}

const fmt = (n: number, d = 2) => n.toFixed(d);

/** Times `n` in-process requests (after a warm-up) and returns the p50 in ms. */
async function p50(capa: ReturnType<typeof createApp>, path: string, key: string, n = 200): Promise<number> {
  const one = async () => {
    const t = performance.now();
    const r = await capa.app.handle(new Request(`http://localhost${path}`, { headers: { "x-api-key": key } }));
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
    return performance.now() - t;
  };
  for (let i = 0; i < 20; i++) await one();
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push(await one());
  return median(xs);
}

export async function benchEntries(): Promise<Figure[]> {
  const out: Figure[] = [];
  const capa = createApp(testConfig(mkdtempSync(join(tmpdir(), "capa-bench-"))));
  const seed = seedBig(capa, 100_000, 1000);
  // Page 1 and page 4,000 by cursor on the default sort (development key: no answer cache).
  let next: string | null = null;
  for (let p = 1; p < 4000; p++) {
    const r = await capa.app.handle(
      new Request(`http://localhost/api/entries/post?limit=25${next ? `&after=${next}` : ""}`, { headers: { "x-api-key": seed.devKey } }),
    );
    next = ((await r.json()) as { meta: { page: { next: string } } }).meta.page.next;
  }
  const first = await p50(capa, "/api/entries/post?limit=25", seed.devKey);
  const deep = await p50(capa, `/api/entries/post?limit=25&after=${next}`, seed.devKey);
  out.push({ figure: "entries: page 4,000 by cursor vs page 1, p50 ms (100k entries)", value: fmt(deep), baseline: fmt(first), ratio: fmt(deep / first) });
  // A filtered and sorted read on a number field with a relation expanded.
  const where = encodeURIComponent(JSON.stringify({ price: { gte: 500 } }));
  const filtered = await p50(capa, `/api/entries/post?limit=25&where=${where}&sort=-price&select=title,price,author(name)`, seed.devKey);
  out.push({
    figure: "entries: where price >= 500, sort -price, author expanded, p50 ms (target < 5)",
    value: fmt(filtered),
    baseline: "5.00",
    ratio: fmt(filtered / 5),
  });
  const dated = await p50(
    capa,
    `/api/entries/post?limit=25&where=${encodeURIComponent(JSON.stringify({ day: { gte: "2025-06-01" } }))}&sort=day&select=title,day,author(name)`,
    seed.devKey,
  );
  out.push({
    figure: "entries: where day >= 2025-06-01, sort day, author expanded, p50 ms (target < 5)",
    value: fmt(dated),
    baseline: "5.00",
    ratio: fmt(dated / 5),
  });
  capa.close();

  // Cached production reads over a socket against a bare Bun.serve answering the same bytes.
  out.push(await versusBare(["2000", "50"], "/api/entries/post?limit=25", "entries: cached production read", 0.5));
  return out;
}

/** GET /api/me over a socket against a bare Bun.serve answering a body of the same size. */
export async function benchMe(): Promise<Figure[]> {
  return [await versusBare(["10", "2"], "/api/me", "me: GET /api/me", 0.6)];
}

/**
 * Throughput of one path of the real server (seeded with `seed` = [posts, authors], production
 * key) against a bare Bun.serve answering the same bytes, measured back to back in one run.
 * Identity encoding on both sides, so the ratio compares serving, not decompression in the client.
 */
export async function versusBare(seed: string[], path: string, label: string, target: number): Promise<Figure> {
  const app = await spawnServer(join(import.meta.dir, "serve-app.ts"), seed);
  const bare = { "accept-encoding": "identity" };
  const url = `${app.info.url}${path}`;
  const headers = { ...bare, "x-api-key": app.info.prodKey as string };
  const bytes = new Uint8Array(await (await fetch(url, { headers })).arrayBuffer());
  const file = join(mkdtempSync(join(tmpdir(), "capa-bench-")), "body.json");
  writeFileSync(file, bytes);
  const baseline = await spawnServer(join(import.meta.dir, "serve-bare.ts"), [file]);
  try {
    await load(url, headers, 16, 1);
    await load(baseline.info.url, bare, 16, 1);
    // Six alternating 2 s rounds; the medians resist a burst of other work on the machine.
    const ours: number[] = [];
    const theirs: number[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < 6; i++) {
      const a = await load(url, headers, 32, 2);
      const b = await load(baseline.info.url, bare, 32, 2);
      ours.push(a.rps);
      theirs.push(b.rps);
      ratios.push(a.rps / b.rps);
    }
    return {
      figure: `${label} (${bytes.byteLength} B), req/s, medians of 6 alternating 2 s rounds (target ratio >= ${target})`,
      value: fmt(median(ours), 0),
      baseline: `${fmt(median(theirs), 0)} (bare Bun.serve)`,
      ratio: fmt(median(ratios)),
    };
  } finally {
    app.proc.kill();
    baseline.proc.kill();
  }
}

if (import.meta.main) {
  for (const f of await benchEntries()) console.log(`| ${f.figure} | ${f.value} | ${f.baseline} | ${f.ratio} |`);
}
