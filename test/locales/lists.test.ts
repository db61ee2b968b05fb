// The management list's selection in a locale (decisions.md 13 with issue 27's lists): `where`,
// `sort` and its cursors read a localized field in the locale listed (?locale=, no fallback, as the
// list shows it); bulk actions and the export select exactly what the list in that locale shows,
// bulk publish and bulk-schedule take `locales`; the palette's search finds a title in any locale.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { l10n, type L10n } from "./fixture.ts";

let p: L10n;
const ids: Record<string, string> = {};

beforeAll(async () => {
  p = await l10n();
  await p.ok("POST", "/v2/models", {
    name: "Fruit",
    namespace: "fruit",
    fields: [
      { namespace: "title", type: "string", localized: true },
      { namespace: "sku", type: "string" },
    ],
  });
  for (const [en, de] of [
    ["Apple", "Apfel"],
    ["Banana", null],
    ["Cherry", "Kirsche"],
  ] as const) {
    const e = await p.ok("POST", "/v2/model-instances", { model: "fruit", data: { title: en, sku: en.toLowerCase() } });
    if (de) await p.ok("PATCH", `/v2/model-instances/${e.id}?locale=de`, { data: { title: de } });
    ids[en] = e.id;
  }
});
afterAll(() => p.h.close());

const list = async (query: string) => p.ok("GET", `/v2/model-instances?model=fruit&${query}`);
const titles = (page: any) => page.data.map((x: any) => x.draft.data.title);

describe("the entry list in a locale", () => {
  test("sort by a localized field orders by its value in the locale listed, an entry without one last", async () => {
    expect(titles(await list("locale=de&sort=title"))).toEqual(["Apfel", "Kirsche", null]);
    expect(titles(await list("locale=de&sort=-title"))).toEqual(["Kirsche", "Apfel", null]);
    expect(titles(await list("sort=-title"))).toEqual(["Cherry", "Banana", "Apple"]);
  });

  test("following next walks the locale's order once; a cursor of one locale is refused in another", async () => {
    const seen: string[] = [];
    let next: string | null = null;
    let first: any = null;
    do {
      const page: any = await list(`locale=de&sort=title&limit=1${next ? `&after=${next}` : ""}`);
      first ??= page;
      seen.push(page.data[0].id);
      next = page.next;
    } while (next);
    expect(seen).toEqual([ids.Apple, ids.Cherry, ids.Banana]);
    const r = await p.json("GET", `/v2/model-instances?model=fruit&sort=title&limit=1&after=${first.next}`);
    expect([r.status, r.body]).toEqual([
      400,
      { error: "after is a cursor of the order title@de; send the same sort as the page it came from", code: "invalid_body", field: "after" },
    ]);
  });

  test("where on a localized field compares its value in the locale listed", async () => {
    const where = encodeURIComponent(JSON.stringify({ title: { eq: "Kirsche" } }));
    const de = await list(`locale=de&where=${where}`);
    expect([de.total, de.data.map((x: any) => x.id)]).toEqual([1, [ids.Cherry]]);
    expect((await list(`where=${where}`)).total).toBe(0);
    const none = encodeURIComponent(JSON.stringify({ title: { exists: false } }));
    expect((await list(`locale=de&where=${none}`)).data.map((x: any) => x.id)).toEqual([ids.Banana]);
  });
});

describe("bulk actions and the export select as the list in that locale", () => {
  test("bulk publish ?locale=de by q publishes the German of what the German list finds", async () => {
    const r = await p.ok("POST", "/v2/model-instances/bulk-publish?locale=de", { modelId: "fruit", q: "Kirsche", locales: ["de"] });
    expect([r.count, r.counts, r.results.map((x: any) => x.id)]).toEqual([1, { done: 1, skipped: 0, failed: 0 }, [ids.Cherry]]);
    const published = await list("locale=de&status=published");
    expect(published.data.map((x: any) => [x.id, x.status])).toEqual([[ids.Cherry, "published"]]);
    expect((await list("status=published")).total).toBe(0);
    // The German drafts: Apfel, and Banana, which holds nothing in German.
    const dry = await p.ok("POST", "/v2/model-instances/bulk-publish?locale=de", { modelId: "fruit", status: "draft", dryRun: true });
    expect(dry.ids.sort()).toEqual([ids.Apple, ids.Banana].sort());
  });

  test("bulk-delete takes whole entries: locales is refused, nothing moves", async () => {
    const r = await p.json("POST", "/v2/model-instances/bulk-delete", { instanceIds: [ids.Apple], locales: ["de"] });
    expect([r.status, r.body]).toEqual([
      400,
      {
        error: "locales names what a publish or unpublish moves; bulk-delete moves whole entries to the trash",
        code: "invalid_body",
        field: "locales",
      },
    ]);
    expect((await list("")).total).toBe(3);
  });

  test("bulk-schedule keeps the locales on every action it makes", async () => {
    const r = await p.ok("POST", "/v2/model-instances/bulk-schedule?locale=de", {
      modelId: "fruit",
      q: "Apfel",
      action: "publish",
      wallTime: "2030-01-01T09:00:00",
      timezone: "UTC",
      locales: ["de"],
    });
    expect(r.count).toBe(1);
    const batch = await p.ok("GET", `/v2/scheduled-actions/batch/${r.batchId}`);
    expect(batch.actions.map((a: any) => [a.targets[0].id, a.locales])).toEqual([[ids.Apple, ["de"]]]);
    const bad = await p.json("POST", "/v2/model-instances/bulk-schedule", {
      instanceIds: [ids.Apple],
      action: "publish",
      wallTime: "2030-01-01T09:00:00",
      locales: ["es"],
    });
    expect([bad.status, bad.body]).toEqual([
      400,
      {
        error: 'locales[0]: "es" is not a locale of this project; its locales are en, de, de-CH, fr.',
        code: "invalid_locale",
        field: "locales[0]",
        locales: ["en", "de", "de-CH", "fr"],
      },
    ]);
  });

  test("the export in a locale has its values, status and order", async () => {
    const r = await p.h.req("POST", "/v2/model-instances/export?locale=de", {
      token: p.token,
      body: { model: "fruit", format: "json", columns: ["title", "sku", "$status"], sort: "title" },
    });
    expect(await r.json()).toEqual([
      { title: "Apfel", sku: "apple", $status: "draft" },
      { title: "Kirsche", sku: "cherry", $status: "published" },
      { title: null, sku: "banana", $status: "draft" },
    ]);
  });

  test("the palette's search finds a title in any locale and names it by the default's", async () => {
    const r = await p.ok("GET", "/v2/search?q=kirsche");
    expect(r.entries.map((e: any) => [e.id, e.title])).toEqual([[ids.Cherry, "Cherry"]]);
  });
});

describe("bad input on /v2 entry routes changes nothing", () => {
  const many = Array.from({ length: 1000 }, () => "locale=de").join("&");
  const once = { error: "locale is sent 1000 times; send it once.", code: "invalid_body", field: "locale" };

  test("locale repeated 1,000 times: a save, a list and a bulk publish are refused naming locale", async () => {
    const before = await p.ok("GET", `/v2/model-instances/${ids.Banana}?locale=*`);
    const save = await p.json("PATCH", `/v2/model-instances/${ids.Banana}?${many}`, { data: { title: "Nope" } });
    expect([save.status, save.body]).toEqual([400, once]);
    const listed = await p.json("GET", `/v2/model-instances?model=fruit&${many}`);
    expect([listed.status, listed.body]).toEqual([400, once]);
    const bulk = await p.json("POST", `/v2/model-instances/bulk-publish?${many}`, { instanceIds: [ids.Banana] });
    expect([bulk.status, bulk.body]).toEqual([400, once]);
    expect(await p.ok("GET", `/v2/model-instances/${ids.Banana}?locale=*`)).toEqual(before);
  });

  test("an unknown, malformed or over-long locale on a list, an export and a bulk action names locale and the project's codes", async () => {
    for (const code of ["es", "de_CH", `de-${"x".repeat(60)}`]) {
      const shown = JSON.stringify(code.slice(0, 60));
      const answer = {
        error: `locale: ${shown} is not a locale of this project; its locales are en, de, de-CH, fr.`,
        code: "invalid_locale",
        field: "locale",
        locales: ["en", "de", "de-CH", "fr"],
      };
      const q = encodeURIComponent(code);
      const listed = await p.json("GET", `/v2/model-instances?model=fruit&locale=${q}`);
      expect([listed.status, listed.body]).toEqual([400, answer]);
      const exported = await p.json("POST", `/v2/model-instances/export?locale=${q}`, { model: "fruit", format: "csv" });
      expect([exported.status, exported.body]).toEqual([400, answer]);
      const bulk = await p.json("POST", `/v2/model-instances/bulk-unpublish?locale=${q}`, { modelId: "fruit" });
      expect([bulk.status, bulk.body]).toEqual([400, answer]);
    }
    expect((await list("locale=de&status=published")).total).toBe(1);
  });
});
