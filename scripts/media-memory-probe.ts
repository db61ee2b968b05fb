// `bun scripts/media-memory-probe.ts [a|b|c|all]`: the figures of issue 24 (docs/performance.md,
// "Image decodes under a budget"), each against a fresh server process started from the sources.
// (a) 16 concurrent uploads of the 35-byte GIF declaring 10,000 x 10,000: the server's RSS peak
//     growth and its growth 20 s after (targets: under 250 MB and under 80 MB).
// (b) One client (127.0.0.2) flooding new variants of a 100-megapixel PNG, never waiting, while
//     another (127.0.0.3) asks a new 400 px variant of a 1600 px photo every 500 ms (its own bucket's rate): that client's
//     p95 (target under 1 s), with what the flood got and how /healthz, the original and a cached
//     variant answered meanwhile.
// (c) One file of every kind of the bad input, all at once: each answer and the slowest
//     (target: each within 2 s).
// Only HTTP is used, so the same script measures any version of the server.
import sharp from "sharp";
import { everyKindOfBadInput, gifBomb } from "../test/media/bombs.ts";
import { jpeg1600, png64 } from "../test/media/fixtures.ts";
import { rssMiB, sampleRss, startMediaServer } from "../test/media/served.ts";

const which = process.argv[2] ?? "all";
const ENV: Record<string, string> = process.env.PROBE_ENV ? JSON.parse(process.env.PROBE_ENV) : {};
const mb = (n: number) => n.toFixed(0);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
};

async function gifs(): Promise<void> {
  const m = await startMediaServer(ENV);
  try {
    // Warm: sharp loaded by one ordinary upload, so the figure is what the GIFs add.
    await m.upload("warm.png", await png64());
    await Bun.sleep(1000);
    const start = rssMiB(m.pid);
    const sampler = sampleRss(m.pid, 5);
    const t0 = performance.now();
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => m.upload(`bomb-${i}.gif`, gifBomb())));
    const ms = performance.now() - t0;
    const peak = sampler.stop();
    await Bun.sleep(20_000);
    const after = rssMiB(m.pid);
    const statuses = [...new Set(answers.map((a) => `${a.status} ${a.body.code ?? (a.body.placeholder === null ? "no placeholder" : "placeholder")}`))];
    console.log("| figure | value |\n|---|---|");
    console.log(`| (a) 16 concurrent 35-byte GIFs: answers | ${statuses.join(", ")} in ${mb(ms)} ms |`);
    console.log(`| (a) RSS at start (warm) | ${mb(start)} MiB |`);
    console.log(`| (a) RSS peak growth (target < 250 MB) | ${mb(peak - start)} MiB (peak ${mb(peak)}) |`);
    console.log(`| (a) RSS growth 20 s later (target < 80 MB) | ${mb(after - start)} MiB |`);
  } finally {
    await m.stop();
  }
}

/** A 10,000 x 10,000 PNG of coarse noise (33 MB): about 0.7 s to render here, all of it inflating rows. */
async function png100(): Promise<Uint8Array> {
  const side = 10_000;
  const small = await sharp({
    create: { width: side / 100, height: side / 100, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .png()
    .toBuffer();
  return new Uint8Array(await sharp(small).resize(side, side, { kernel: "cubic" }).png({ compressionLevel: 3, adaptiveFiltering: true }).toBuffer());
}

async function flood(): Promise<void> {
  const m = await startMediaServer(ENV);
  try {
    const big = await m.upload("big.png", await png100());
    const photo = await m.upload("photo.jpg", await jpeg1600());
    if (big.status !== 201 || photo.status !== 201) throw new Error(`uploads: ${big.status} ${photo.status} ${JSON.stringify(big.body)}`);
    const path = (r: { body: { id: string; filename: string } }) => `/media/${m.projectId}/${r.body.id}/${r.body.filename}`;
    const cached = `${path(photo)}?w=300`;
    await m.get(cached, "127.0.0.4");
    const seconds = Number(process.env.PROBE_SECONDS ?? 20);
    const until = Date.now() + seconds * 1000;
    // The flood: 30 requests in flight from one address, each for a variant never asked before; a
    // 429 is not honoured beyond a pause of 100 ms (a client that waited as told would flood less).
    const flooded = { ok: 0, limited: 0, other: new Map<number, number>(), retryAfter: new Set<string>() };
    let n = 0;
    const flooder = async () => {
      while (Date.now() < until) {
        const i = n++;
        const r = await m.get(`${path(big)}?w=${100 + (i % 3900)}&h=${100 + Math.floor(i / 3900)}`, "127.0.0.2");
        if (r.status === 200) flooded.ok++;
        else if (r.status === 429) {
          flooded.limited++;
          flooded.retryAfter.add(String(r.headers["retry-after"]));
          await Bun.sleep(100);
        } else flooded.other.set(r.status, (flooded.other.get(r.status) ?? 0) + 1);
      }
    };
    const victim = { ms: [] as number[], statuses: new Map<number, number>() };
    const others = { healthz: [] as number[], original: [] as number[], cached: [] as number[] };
    const watcher = async () => {
      let q = 1;
      await Bun.sleep(1000);
      while (Date.now() < until) {
        const r = await m.get(`${path(photo)}?w=400&q=${q++}`, "127.0.0.3");
        victim.ms.push(r.ms);
        victim.statuses.set(r.status, (victim.statuses.get(r.status) ?? 0) + 1);
        others.healthz.push((await m.get("/healthz", "127.0.0.5")).ms);
        others.original.push((await m.get(path(photo), "127.0.0.5")).ms);
        others.cached.push((await m.get(cached, "127.0.0.5")).ms);
        await Bun.sleep(500);
      }
    };
    const start = rssMiB(m.pid);
    const sampler = sampleRss(m.pid, 20);
    await Promise.all([...Array.from({ length: 30 }, flooder), watcher()]);
    const peak = sampler.stop();
    const statuses = [...victim.statuses].map(([s, n]) => `${n} x ${s}`).join(", ");
    console.log("| figure | value |\n|---|---|");
    console.log(
      `| (b) the other client's new 400 px variants (${statuses}): p50 / p95 / max | ${mb(pct(victim.ms, 50))} / ${mb(pct(victim.ms, 95))} / ${mb(Math.max(...victim.ms))} ms |`,
    );
    const other = [...flooded.other].map(([status, k]) => `${k} x ${status}`).join(", ") || "none";
    const retry = [...flooded.retryAfter].sort((a, b) => Number(a) - Number(b)).join(", ");
    console.log(`| (b) the flood in ${seconds} s: rendered / 429 / other; Retry-After values | ${flooded.ok} / ${flooded.limited} / ${other}; ${retry} s |`);
    console.log(
      `| (b) meanwhile p95: /healthz, the original, a cached variant | ${mb(pct(others.healthz, 95))} / ${mb(pct(others.original, 95))} / ${mb(pct(others.cached, 95))} ms |`,
    );
    console.log(`| (b) RSS peak growth during the flood | ${mb(peak - start)} MiB (from ${mb(start)}) |`);
  } finally {
    await m.stop();
  }
}

/** (c): every kind of bad input at once, each answer with its time. */
async function kinds(): Promise<void> {
  const m = await startMediaServer(ENV);
  try {
    await m.upload("warm.png", await png64());
    const inputs = await everyKindOfBadInput();
    const answers = await Promise.all(inputs.map(([name, bytes]) => m.upload(name, bytes)));
    console.log("| figure | value |\n|---|---|");
    inputs.forEach(([name], i) => {
      const a = answers[i]!;
      console.log(`| (c) ${name} | ${a.status} ${a.body.code ?? a.body.mimeType} in ${mb(a.ms)} ms |`);
    });
    console.log(`| (c) slowest answer (target < 2 s) | ${mb(Math.max(...answers.map((a) => a.ms)))} ms |`);
  } finally {
    await m.stop();
  }
}

if (which === "a" || which === "all") await gifs();
if (which === "b" || which === "all") await flood();
if (which === "c" || which === "all") await kinds();
