// A project's locales (decisions.md 13): GET and PUT /v2/locales. English alone at first; a saved
// list canonical (BCP 47 case, English names filled in); every bad body refused whole with 400
// invalid_locale naming its path, nothing changed; 409 locale_in_use with counts, and ?force=true
// dropping the values from every copy and version (an entry published in that locale alone goes
// offline); who may change them; the edge purge of project:<id>.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { legacyKey } from "../agent-keys.ts";
import { addMember } from "../api/helpers.ts";
import { clearOutbox, edgeConfig, edgeProject, outbox } from "../edge/fixture.ts";
import { FOUR, l10n, type L10n } from "./fixture.ts";

let p: L10n;
beforeAll(async () => {
  p = await l10n({}, null);
});
afterAll(() => p.h.close());

const ENGLISH = { default: "en", locales: [{ code: "en", name: "English", fallback: [] }] };

describe("GET and PUT /v2/locales", () => {
  test("a project starts with English alone; a legacy key reads them on the agent mount", async () => {
    expect(await p.json("GET", "/v2/locales")).toEqual({ status: 200, body: ENGLISH, headers: expect.anything() });
    const key = await legacyKey(p.h, p.token, "read");
    const r = await p.h.json("GET", "/v2/agent/locales", { headers: { "x-api-key": key } });
    expect([r.status, r.body]).toEqual([200, ENGLISH]);
    // Replacing them is for people: the agent mount has no such route.
    const put = await p.h.json("PUT", "/v2/agent/locales", { headers: { "x-api-key": key }, body: ENGLISH });
    expect(put.status).toBe(404);
  });

  test("a saved list comes back canonical: tags in BCP 47 case, each name the language's English name unless given", async () => {
    const r = await p.json("PUT", "/v2/locales", {
      default: "EN",
      locales: [{ code: "en" }, { code: "de", fallback: ["EN"] }, { code: "de-ch", name: "Schweizerdeutsch", fallback: ["de"] }, { code: "pt-br" }],
    });
    const saved = {
      default: "en",
      locales: [
        { code: "en", name: "English", fallback: [] },
        { code: "de", name: "German", fallback: ["en"] },
        { code: "de-CH", name: "Schweizerdeutsch", fallback: ["de"] },
        { code: "pt-BR", name: "Brazilian Portuguese", fallback: [] },
      ],
    };
    expect([r.status, r.body]).toEqual([200, saved]);
    expect((await p.json("GET", "/v2/locales")).body).toEqual(saved);
    expect((await p.json("PUT", "/v2/locales", FOUR)).body).toEqual(FOUR);
  });

  const refusals: [string, unknown, string, string][] = [
    [
      "a malformed code",
      { default: "en", locales: [{ code: "en" }, { code: "en_US" }] },
      "locales[1].code",
      'locales[1].code: "en_US" is not a BCP 47 language tag (such as en, de-CH, pt-BR)',
    ],
    [
      "an over-long code",
      { default: "en", locales: [{ code: "en" }, { code: `de-${"abcdefgh-".repeat(4)}x` }] },
      "locales[1].code",
      "locales[1].code must be a BCP 47 language tag of at most 35 characters, such as en, de-CH or pt-BR",
    ],
    [
      "a fallback to an unknown code",
      { default: "en", locales: [{ code: "en" }, { code: "de", fallback: ["en", "fr"] }] },
      "locales[1].fallback[1]",
      'locales[1].fallback[1]: "fr" is not one of the locales (en, de)',
    ],
    [
      "a cycle",
      { default: "en", locales: [{ code: "en" }, { code: "de", fallback: ["de-CH"] }, { code: "de-CH", fallback: ["de"] }] },
      "locales[2].fallback[0]",
      "locales[2].fallback[0]: the fallbacks make a cycle (de -> de-CH -> de)",
    ],
    [
      "a locale falling back to itself",
      { default: "en", locales: [{ code: "en" }, { code: "de", fallback: ["de"] }] },
      "locales[1].fallback[0]",
      "locales[1].fallback[0]: de cannot fall back to itself",
    ],
    ["a code twice", { default: "en", locales: [{ code: "en" }, { code: "de" }, { code: "DE" }] }, "locales[2].code", "locales[2].code: de is listed twice"],
    [
      "a fallback twice",
      { default: "en", locales: [{ code: "en" }, { code: "de", fallback: ["en", "EN"] }] },
      "locales[1].fallback[1]",
      "locales[1].fallback[1]: en is listed twice",
    ],
    [
      "removing the default locale",
      { default: "en", locales: [{ code: "de" }, { code: "fr" }] },
      "default",
      'default: "en" is not one of the locales (de, fr)',
    ],
    [
      "a default that falls back",
      { default: "en", locales: [{ code: "en", fallback: ["de"] }, { code: "de" }] },
      "locales[0].fallback",
      "locales[0].fallback: the default locale en falls back to nothing",
    ],
    ["no locale at all", { default: "en", locales: [] }, "locales", "locales must list 1 to 50 locales; it lists 0"],
    [
      "51 locales",
      { default: "en", locales: Array.from({ length: 51 }, (_, i) => ({ code: i === 0 ? "en" : `en-${String(i).padStart(3, "0")}` })) },
      "locales",
      "locales must list 1 to 50 locales; it lists 51",
    ],
    [
      "a key a locale does not have",
      { default: "en", locales: [{ code: "en", label: "English" }] },
      "locales[0].label",
      "locales[0].label is not part of a locale; send code, name and fallback",
    ],
    ["no default", { locales: [{ code: "en" }] }, "default", "default must be the code of one of the locales"],
  ];
  for (const [what, body, path, error] of refusals) {
    test(`refused, nothing changed: ${what}`, async () => {
      const before = (await p.json("GET", "/v2/locales")).body;
      const r = await p.json("PUT", "/v2/locales", body);
      expect([r.status, r.body]).toEqual([400, { error, code: "invalid_locale", path }]);
      expect((await p.json("GET", "/v2/locales")).body).toEqual(before);
    });
  }

  test("an editor may read the locales but not change them", async () => {
    await addMember(p.h, p.token, p.projectId, "editor@example.com", "editor");
    const ed = (await p.h.json("POST", "/v2/user/login", { body: { email: "editor@example.com", password: "member-password-1" } })).body.accessToken;
    const as = { token: ed, headers: { "x-svc-project": p.projectId } };
    expect((await p.h.json("GET", "/v2/locales", as)).body).toEqual(FOUR);
    const r = await p.h.json("PUT", "/v2/locales", { ...as, body: ENGLISH });
    expect([r.status, r.body]).toEqual([403, { error: "Insufficient permissions", required: ["owner", "admin"], current: "editor" }]);
    expect((await p.json("GET", "/v2/locales")).body).toEqual(FOUR);
  });
});

describe("removing a locale that holds values", () => {
  let q: L10n;
  let both: string;
  let deOnly: string;
  let english: string;
  beforeAll(async () => {
    q = await l10n();
    await q.ok("POST", "/v2/models", {
      name: "Page",
      namespace: "page",
      fields: [
        { namespace: "title", type: "string", localized: true },
        { namespace: "tags", type: "array", arrayType: "string", localized: true },
        { namespace: "views", type: "number" },
      ],
    });
    both = (await q.ok("POST", "/v2/model-instances", { model: "page", data: { title: "Hello", views: 1 } })).id;
    await q.ok("PATCH", `/v2/model-instances/${both}?locale=de`, { data: { title: "Hallo", tags: ["a", "b"] } });
    await q.ok("POST", `/v2/model-instances/${both}/publish`, {});
    await q.ok("PATCH", `/v2/model-instances/${both}?locale=de`, { data: { title: "Hallo!" } });
    deOnly = (await q.ok("POST", "/v2/model-instances?locale=de", { model: "page", data: { title: "Nur Deutsch" } })).id;
    await q.ok("POST", `/v2/model-instances/${deOnly}/publish`, { locales: ["de"] });
    english = (await q.ok("POST", "/v2/model-instances", { model: "page", data: { title: "Only English" } })).id;
  });
  afterAll(() => q.h.close());

  const WITHOUT_DE = { default: "en", locales: FOUR.locales.filter((l) => l.code !== "de" && l.code !== "de-CH") };

  test("409 locale_in_use names each removed locale's entries and values; nothing changes", async () => {
    const r = await q.json("PUT", "/v2/locales", WITHOUT_DE);
    expect([r.status, r.body]).toEqual([
      409,
      {
        // Both entries' German drafts (a title and a list, and a title), and the one published German title that differs from its draft.
        error: "Entries hold values in de (2 entries, 4 values); send ?force=true to drop them.",
        code: "locale_in_use",
        locales: [{ code: "de", entries: 2, values: 4 }],
      },
    ]);
    expect((await q.json("GET", "/v2/locales")).body).toEqual(FOUR);
    expect((await q.ok("GET", `/v2/model-instances/${both}?locale=de`)).draft.data).toEqual({ title: "Hallo!", tags: ["a", "b"], views: 1 });
    // force must be true or false.
    const bad = await q.json("PUT", "/v2/locales?force=yes", WITHOUT_DE);
    expect([bad.status, bad.body]).toEqual([400, { error: "force must be true or false", code: "invalid_body", field: "force" }]);
  });

  test("a locale nobody wrote in is removed at once; ?force=true drops de's values from drafts, published copies and versions", async () => {
    const noFr = { default: "en", locales: FOUR.locales.filter((l) => l.code !== "fr") };
    expect((await q.json("PUT", "/v2/locales", noFr)).status).toBe(200);
    const events = () =>
      q.h.capa.services.projects.get(q.projectId).sqlite.query("SELECT type, body FROM events ORDER BY seq").all() as { type: string; body: string }[];
    const seen = events().length;
    const r = await q.json("PUT", "/v2/locales?force=true", { default: "en", locales: [{ code: "en" }] });
    expect([r.status, r.body]).toEqual([200, { default: "en", locales: [{ code: "en", name: "English", fallback: [] }] }]);
    const all = await q.ok("GET", `/v2/model-instances/${both}?locale=*`);
    // English was published as it is drafted: only German changed after the publish.
    expect(all.locales).toEqual({ en: { status: "published", publishedAt: "2026-11-21T12:00:00.000Z" } });
    expect(all.draft.data).toEqual({ title: { en: "Hello" }, tags: { en: null }, views: 1 });
    expect(all.published.data).toEqual({ title: { en: "Hello" }, tags: { en: null }, views: 1 });
    const versions = (await q.ok("GET", `/v2/model-instances/${both}/versions?locale=*`)).data;
    expect(versions.map((v: any) => v.data.title)).toEqual([{ en: "Hello" }, { en: "Hello" }, { en: "Hello" }]);
    // The entry published in German alone is not published in any locale now: it went offline, with its event.
    const gone = await q.ok("GET", `/v2/model-instances/${deOnly}`);
    expect([gone.status, gone.publishedVersion, gone.published, gone.locales]).toEqual(["draft", null, null, {}]);
    const fresh = events().slice(seen);
    expect(fresh.map((e) => [e.type, JSON.parse(e.body).data])).toEqual([
      ["instance.unpublished", { instanceId: deOnly, modelId: expect.any(String), modelNamespace: "page", scheduledActionId: null, locales: ["de"] }],
    ]);
    expect((await q.ok("GET", `/v2/model-instances/${english}`)).draft.data).toEqual({ title: "Only English", tags: null, views: null });
    const read = await q.read(`/api/entries/page?locale=de`, q.dev);
    expect([read.status, read.body.error.code, read.body.error.param]).toEqual([400, "invalid_locale", "locale"]);
  });
});

describe("the edge", () => {
  test("a change of locales purges project:<id>; a refused one purges nothing", async () => {
    const e = await edgeProject(edgeConfig({ CAPA_EDGE_PURGE: "varnish:http://127.0.0.1:6081" }));
    try {
      clearOutbox(e);
      expect((await e.h.json("PUT", "/v2/locales", { ...e.as(), body: { default: "en", locales: [{ code: "en" }, { code: "x" }] } })).status).toBe(400);
      expect(outbox(e)).toEqual({ project: [], control: [] });
      expect((await e.h.json("PUT", "/v2/locales", { ...e.as(), body: FOUR })).status).toBe(200);
      expect(outbox(e)).toEqual({
        project: [],
        control: [expect.objectContaining({ target: "varnish:http://127.0.0.1:6081/", tags: [`project:${e.projectId}`], attempts: 0 })],
      });
    } finally {
      e.h.close();
    }
  });
});
