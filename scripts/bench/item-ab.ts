// `bun scripts/bench/item-ab.ts <checkout A> <checkout B>`: the read of one entry by id
// (`select=title,author(name)`, development key, 5,000 seeded posts) by two checkouts in one
// process, 20,000 single requests of each interleaved one by one (the order flipping every
// request), medians. Finer than the p50s of rounds: two copies of one tree measure 1.00x here.
// Used for issue 28's "one locale: within 3% of before" (docs/performance.md, locales).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

async function tree(root: string) {
  const { createApp } = await import(join(root, "src/app.ts"));
  const { testConfig } = await import(join(root, "src/config.ts"));
  const { seedBig } = await import(join(root, "scripts/bench/seed.ts"));
  const capa = createApp(testConfig(mkdtempSync(join(tmpdir(), "capa-item-ab-"))));
  const seed = seedBig(capa, 5000, 100);
  const first = await capa.app.handle(new Request("http://localhost/api/entries/post?limit=1", { headers: { "x-api-key": seed.devKey } }));
  const id = ((await first.json()) as { data: { id: string }[] }).data[0]!.id;
  const url = `http://localhost/api/entries/post/${id}?select=title,author(name)`;
  return async () => {
    const t = performance.now();
    const r = await capa.app.handle(new Request(url, { headers: { "x-api-key": seed.devKey } }));
    await r.arrayBuffer();
    return performance.now() - t;
  };
}

const [pa, pb] = process.argv.slice(2);
if (!pa || !pb) {
  process.stderr.write("usage: bun scripts/bench/item-ab.ts <checkout A> <checkout B>\n");
  process.exit(1);
}
const a = await tree(resolve(pa));
const b = await tree(resolve(pb));
const xa: number[] = [];
const xb: number[] = [];
for (let i = 0; i < 2000; i++) {
  await a();
  await b();
}
for (let i = 0; i < 20000; i++) {
  if (i % 2) {
    xa.push(await a());
    xb.push(await b());
  } else {
    xb.push(await b());
    xa.push(await a());
  }
}
const med = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
console.log(`${pa} ${(med(xa) * 1000).toFixed(1)} us, ${pb} ${(med(xb) * 1000).toFixed(1)} us: ratio ${(med(xa) / med(xb)).toFixed(3)}`);
process.exit(0);
