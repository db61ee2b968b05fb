// `bench locales` (issue 28, Performance): a localized list read in de-CH with a two-step chain
// (de-CH -> de -> en) and a filter plus a sort on a localized field, against the same read of the
// same values in a model without locales, in one run (in process, p50 of 300 after a warm-up):
// uncached with a production key (the render cache dropped before each read), cached with it,
// and uncached with a development key; and keyset page 400 of the localized read against its
// page 1. The localized model stores three locales' slots; the plain one stores the value a de-CH
// reader sees after fallback, so both answer the same entries in the same order.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, type CapaApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { createProject } from "../../src/domain/projects/service.ts";
import { createModel } from "../../src/domain/models/service.ts";
import { putLocales } from "../../src/domain/locales/service.ts";
import { mintKey } from "../../src/domain/keys/mint.ts";
import type { Figure } from "./entries.ts";
import { median } from "./load.ts";

const N = 100_000;
const fmt = (n: number, d = 3) => n.toFixed(d);

/** A project with `plain` (title, price) and `local` (title localized in en, de, de-CH; price), N entries each, all published. */
function seed(capa: CapaApp) {
  const s = capa.services;
  const user = createUser(s, { email: `bench-l10n-${Date.now()}@example.com`, password: "bench-password" });
  const project = createProject(s, { name: "Bench locales", ownerId: user.id });
  const h = s.projects.get(project.id);
  putLocales(
    s,
    h,
    {
      default: "en",
      locales: [
        { code: "en", name: "English" },
        { code: "de", name: "German", fallback: ["en"] },
        { code: "de-CH", name: "Swiss German", fallback: ["de"] },
      ],
    },
    false,
    "system",
  );
  const plain = createModel(s, h, {
    name: "Plain",
    namespace: "plain",
    fields: [
      { namespace: "title", type: "string" },
      { namespace: "price", type: "number" },
    ],
  });
  const local = createModel(s, h, {
    name: "Local",
    namespace: "local",
    fields: [
      { namespace: "title", type: "string", localized: true },
      { namespace: "price", type: "number" },
    ],
  });
  const insert = h.sqlite.prepare(`INSERT INTO entries (id, model_id, created_at, updated_at, draft_version_id, draft_version, draft_data, draft_tags,
    draft_keys, published_version_id, published_version, published_data, published_tags, published_at, published_updated_at, published_keys, locale_state)
    VALUES (?, ?, ?, ?, ?, 1, ?, '[]', '{}', ?, 1, ?, '[]', ?, ?, '{}', ?)`);
  const version = h.sqlite.prepare(`INSERT INTO entry_versions (id, entry_id, number, data, tags, created_at) VALUES (?, ?, 1, ?, '[]', ?)`);
  const add = (modelId: string, data: unknown, state: string | null, at: string) => {
    const id = Bun.randomUUIDv7();
    const vid = Bun.randomUUIDv7();
    const json = JSON.stringify(data);
    insert.run(id, modelId, at, at, vid, json, vid, json, at, at, state);
    version.run(vid, id, json, at);
  };
  const t0 = Date.UTC(2025, 0, 1);
  const [pt, pp] = plain.fields.map((f) => f.id);
  const [lt, lp] = local.fields.map((f) => f.id);
  h.sqlite.transaction(() => {
    for (let i = 0; i < N; i++) {
      const at = new Date(t0 + i * 60_000).toISOString();
      const k = String((i * 7919) % N).padStart(6, "0");
      // English always; German for two thirds; Swiss German for a fifth.
      const slots: Record<string, string> = { en: `E ${k}` };
      if (i % 3) slots.de = `D ${k}`;
      if (i % 5 === 0) slots["de-CH"] = `C ${k}`;
      const seen = slots["de-CH"] ?? slots.de ?? slots.en;
      const price = (i * 31) % 1000;
      add(plain.id, { [pt!]: seen, [pp!]: price }, null, at);
      const state = Object.fromEntries(Object.keys(slots).map((c) => [c, { status: "published", publishedAt: at, draft: true }]));
      add(local.id, { [lt!]: slots, [lp!]: price }, JSON.stringify(state), at);
    }
  })();
  h.sqlite.exec("ANALYZE");
  s.changes.content(project.id);
  return {
    projectId: project.id,
    prod: mintKey(s, project.id, { kind: "cli" }, { preset: "read_only" }).apiKey,
    dev: mintKey(s, project.id, { kind: "cli" }, { preset: "read_only", environment: "development" }).apiKey,
  };
}

/** The p50 in ms of `n` reads after a warm-up; `before` runs ahead of each (outside the timing only when `untimed`). */
async function p50(capa: CapaApp, path: string, key: string, before: () => void = () => {}, n = 300): Promise<number> {
  const one = async () => {
    const t = performance.now();
    before();
    const r = await capa.app.handle(new Request(`http://localhost${path}`, { headers: { "x-api-key": key } }));
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
    return performance.now() - t;
  };
  for (let i = 0; i < 30; i++) await one();
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push(await one());
  return median(xs);
}

export async function benchLocales(): Promise<Figure[]> {
  const capa = createApp(testConfig(mkdtempSync(join(tmpdir(), "capa-bench-l10n-"))));
  const seeded = seed(capa);
  const where = encodeURIComponent(JSON.stringify({ title: { contains: "1" } }));
  const read = `?select=title,price&where=${where}&sort=title&limit=25`;
  const localized = `/api/entries/local${read}&locale=de-CH`;
  const plain = `/api/entries/plain${read}`;
  // Both answer the same values in the same order.
  const data = async (path: string) => {
    const body = (await (await capa.app.handle(new Request(`http://localhost${path}`, { headers: { "x-api-key": seeded.dev } }))).json()) as {
      data?: { title: string }[];
    };
    if (!body.data) throw new Error(`${path}: ${JSON.stringify(body)}`);
    return body.data.map((x) => x.title);
  };
  if (JSON.stringify(await data(localized)) !== JSON.stringify(await data(plain))) throw new Error("the localized and the plain read differ");
  const drop = () => capa.services.renderCache.invalidate(seeded.projectId);
  const out: Figure[] = [];
  const pair = async (label: string, key: string, before?: () => void) => {
    // Alternating rounds, so drift in the machine's load touches both alike.
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let round = 0; round < 3; round++) {
      ours.push(await p50(capa, localized, key, before));
      theirs.push(await p50(capa, plain, key, before));
    }
    const a = median(ours);
    const b = median(theirs);
    out.push({
      figure: `locales: ${label}, p50 ms, localized (de-CH -> de -> en) vs the same values without locales (target ratio <= 1.5)`,
      value: fmt(a),
      baseline: fmt(b),
      ratio: fmt(a / b, 2),
    });
  };
  await pair("where title contains 1, sort title, production key, uncached", seeded.prod, drop);
  await pair("the same, production key, cached", seeded.prod);
  await pair("the same, development key (never cached)", seeded.dev);
  // Page 400 by cursor against page 1 of the localized read (development key: no answer cache).
  let next: string | null = null;
  for (let page = 1; page < 400; page++) {
    const r = await capa.app.handle(new Request(`http://localhost${localized}${next ? `&after=${next}` : ""}`, { headers: { "x-api-key": seeded.dev } }));
    next = ((await r.json()) as { meta: { page: { next: string } } }).meta.page.next;
  }
  const first = await p50(capa, localized, seeded.dev);
  const deep = await p50(capa, `${localized}&after=${next}`, seeded.dev);
  out.push({
    figure: "locales: page 400 by cursor vs page 1 of that localized read, p50 ms (target ratio <= 1.2)",
    value: fmt(deep),
    baseline: fmt(first),
    ratio: fmt(deep / first, 2),
  });
  capa.close();
  return out;
}

if (import.meta.main) {
  for (const f of await benchLocales()) console.log(`| ${f.figure} | ${f.value} | ${f.baseline} | ${f.ratio} |`);
}
