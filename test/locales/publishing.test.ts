// Status per locale (decisions.md 13): each locale of an entry is draft, published or changed with
// its own publishedAt; publish and unpublish take `locales` (default: every locale with a value,
// every published locale); shared fields go live with any locale's publish; rules are checked in
// each locale published; instance.published and instance.unpublished carry data.locales and the
// content in the locale=* shape; bulk (dry run included) and scheduled actions take `locales`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runDueActions } from "../../src/domain/scheduling/runner.ts";
import { createHook, deliver, Receiver, testCerts, verifyAt } from "../webhooks/receiver.ts";
import { l10n, type L10n } from "./fixture.ts";

let p: L10n;
let rx: Receiver;
let hook: { id: string; secret: string };
beforeAll(async () => {
  const c = await testCerts();
  p = await l10n({ webhookAllowPrivate: true, webhookCaFile: c.caFile });
  rx = new Receiver(c);
  await p.ok("POST", "/v2/models", {
    name: "Post",
    namespace: "post",
    fields: [
      { namespace: "title", type: "string", localized: true, required: true },
      { namespace: "body", type: "markdown", localized: true },
      { namespace: "price", type: "number" },
    ],
  });
  await p.ok("POST", "/v2/models", { name: "Note", namespace: "note", fields: [{ namespace: "text", type: "string" }] });
  hook = await createHook(p.h, p.token, { url: rx.url("/hook"), events: ["instance.published", "instance.unpublished"], includeContent: true });
});
afterAll(() => {
  rx.stop();
  p.h.close();
});

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 21, 12, minutes)).toISOString();
const events = () =>
  (p.h.capa.services.projects.get(p.projectId).sqlite.query("SELECT body FROM events ORDER BY seq").all() as { body: string }[]).map((e) => JSON.parse(e.body));
const post = async (en: string, de?: string) => {
  const e = await p.ok("POST", "/v2/model-instances", { model: "post", data: { title: en, price: 1 } });
  if (de) await p.ok("PATCH", `/v2/model-instances/${e.id}?locale=de`, { data: { title: de } });
  return e.id as string;
};

describe("publishing locale by locale", () => {
  test("each locale has its own status and publishedAt; shared fields go live with any locale's publish", async () => {
    const id = await post("Hello", "Hallo");
    p.h.clock.set(Date.parse(at(1)));
    const de = await p.ok("POST", `/v2/model-instances/${id}/publish?locale=de`, { locales: ["de"] });
    expect([de.locale, de.status, de.publishedAt, de.locales]).toEqual([
      "de",
      "published",
      at(1),
      { en: { status: "draft", publishedAt: null }, de: { status: "published", publishedAt: at(1) } },
    ]);
    // German is live, with the shared price; English is not.
    expect(de.published.data).toEqual({ title: "Hallo", body: null, price: 1 });
    expect((await p.ok("GET", `/v2/model-instances/${id}`)).published.data).toEqual({ title: null, body: null, price: 1 });
    // A save of the shared price changes what German shows: German is changed until a locale's publish takes it live.
    const saved = await p.ok("PATCH", `/v2/model-instances/${id}?locale=de`, { data: { price: 2 } });
    expect(saved.locales.de.status).toBe("changed");
    p.h.clock.set(Date.parse(at(2)));
    const en = await p.ok("POST", `/v2/model-instances/${id}/publish`, { locales: ["en"] });
    expect([en.status, en.publishedAt, en.locales]).toEqual([
      "published",
      at(2),
      { en: { status: "published", publishedAt: at(2) }, de: { status: "published", publishedAt: at(1) } },
    ]);
    expect((await p.ok("GET", `/v2/model-instances/${id}?locale=de`)).published.data).toEqual({ title: "Hallo", body: null, price: 2 });
  });

  test("without locales a publish moves every locale that holds a value, and the event says which", async () => {
    const id = await post("Both", "Beide");
    const seen = events().length;
    const r = await p.ok("POST", `/v2/model-instances/${id}/publish`, {});
    expect(r.locales).toEqual({ en: { status: "published", publishedAt: at(2) }, de: { status: "published", publishedAt: at(2) } });
    const [e] = events().slice(seen);
    expect([e.type, e.data.locales, e.data.title]).toEqual(["instance.published", ["en", "de"], "Both"]);
  });

  test("the rules are checked in each locale published, naming the locale; nothing is published", async () => {
    const id = await post("Only English");
    const r = await p.json("POST", `/v2/model-instances/${id}/publish`, { locales: ["en", "fr"] });
    expect([r.status, r.body]).toEqual([
      400,
      {
        error: "title (fr) is required before the entry can be published",
        code: "validation_failed",
        field: "data.title",
        errors: [{ field: "data.title", rule: "required", message: "title (fr) is required before the entry can be published", locale: "fr" }],
      },
    ]);
    expect((await p.ok("GET", `/v2/model-instances/${id}`)).published).toBeNull();
  });

  test("locales must be codes of the project: refused by their place in the body", async () => {
    const id = await post("Refused");
    for (const [body, answer] of [
      [
        { locales: ["de", "es"] },
        {
          error: 'locales[1]: "es" is not a locale of this project; its locales are en, de, de-CH, fr.',
          code: "invalid_locale",
          field: "locales[1]",
          locales: ["en", "de", "de-CH", "fr"],
        },
      ],
      [{ locales: [] }, { error: "locales must list 1 to 50 locale codes", code: "invalid_body", field: "locales" }],
      [{ locales: "de" }, { error: "locales must list 1 to 50 locale codes", code: "invalid_body", field: "locales" }],
    ] as const) {
      const r = await p.json("POST", `/v2/model-instances/${id}/publish`, body);
      expect([r.status, r.body]).toEqual([400, answer]);
      const u = await p.json("POST", `/v2/model-instances/${id}/unpublish`, body);
      expect([u.status, u.body]).toEqual([400, answer]);
    }
    expect((await p.ok("GET", `/v2/model-instances/${id}`)).published).toBeNull();
  });

  test("unpublishing one locale takes its values off; the last one takes the entry off; each event names the locales that moved", async () => {
    const id = await post("Going", "Gehend");
    await p.ok("POST", `/v2/model-instances/${id}/publish`, {});
    const seen = events().length;
    const de = await p.ok("POST", `/v2/model-instances/${id}/unpublish?locale=*`, { locales: ["de"] });
    expect([de.locales, de.published.data.title]).toEqual([
      { en: { status: "published", publishedAt: at(2) }, de: { status: "draft", publishedAt: null } },
      { en: "Going", de: null, "de-CH": null, fr: null },
    ]);
    // Unpublishing what is not published changes nothing and says nothing.
    await p.ok("POST", `/v2/model-instances/${id}/unpublish`, { locales: ["de", "fr"] });
    const all = await p.ok("POST", `/v2/model-instances/${id}/unpublish`, {});
    expect([all.status, all.publishedVersion, all.published, all.locales]).toEqual([
      "draft",
      null,
      null,
      { en: { status: "draft", publishedAt: null }, de: { status: "draft", publishedAt: null } },
    ]);
    expect(
      events()
        .slice(seen)
        .map((e) => [e.type, e.data.locales]),
    ).toEqual([
      ["instance.unpublished", ["de"]],
      ["instance.unpublished", ["en"]],
    ]);
  });

  test("a webhook with content data gets data.locales and the entry in the locale=* shape", async () => {
    await deliver(p.h);
    rx.received.splice(0);
    p.h.clock.set(Date.parse(at(3)));
    const id = await post("Hooked", "Gehakt");
    await p.ok("POST", `/v2/model-instances/${id}/publish`, { locales: ["de"] });
    await deliver(p.h);
    const [r] = rx.on("/hook");
    const payload = verifyAt(hook.secret, r!, p.h.clock.now()) as any;
    expect(Object.keys(payload.data)).toEqual([
      "instanceId",
      "modelId",
      "modelNamespace",
      "versionId",
      "versionNumber",
      "publishedAt",
      "title",
      "scheduledActionId",
      "locales",
      "data",
    ]);
    expect(payload.data.locales).toEqual(["de"]);
    expect(payload.data.data).toEqual({
      id,
      model: "post",
      // locale=* reads no one locale: the entry's own status and publishedAt.
      status: "published",
      createdAt: at(3),
      updatedAt: at(3),
      publishedAt: at(3),
      version: 2,
      tags: [],
      folder: null,
      // Only German is published: the other locales read null, with no fallback.
      title: { en: null, de: "Gehakt", "de-CH": null, fr: null },
      body: { en: null, de: null, "de-CH": null, fr: null },
      price: 1,
    });
  });

  test("an entry of a model without localized fields publishes as it always did: locales are checked, then ignored", async () => {
    const n = await p.ok("POST", "/v2/model-instances", { model: "note", data: { text: "plain" } });
    const seen = events().length;
    const r = await p.ok("POST", `/v2/model-instances/${n.id}/publish`, { locales: ["fr"] });
    expect([r.status, "locale" in r, "locales" in r]).toEqual(["published", false, false]);
    const [e] = events().slice(seen);
    expect(Object.keys(e.data)).toEqual(["instanceId", "modelId", "modelNamespace", "versionId", "versionNumber", "publishedAt", "title", "scheduledActionId"]);
  });
});

describe("bulk and scheduled actions take locales", () => {
  test("a dry run lists who would fail in the locales named; the run publishes those locales and skips what is live", async () => {
    const ready = await post("Ready", "Bereit");
    const short = await post("Short");
    const dry = await p.ok("POST", "/v2/model-instances/bulk-publish", { instanceIds: [ready, short], locales: ["de"], dryRun: true });
    expect(dry).toEqual({
      dryRun: true,
      action: "publish",
      count: 2,
      ids: [ready, short],
      failures: [
        {
          id: short,
          errors: [{ field: "data.title", rule: "required", message: "title (de) is required before the entry can be published", locale: "de" }],
        },
      ],
    });
    const run = await p.ok("POST", "/v2/model-instances/bulk-publish", { instanceIds: [ready, short], locales: ["de"] });
    expect(run.counts).toEqual({ done: 1, skipped: 0, failed: 1 });
    expect((await p.ok("GET", `/v2/model-instances/${ready}`)).locales).toEqual({
      en: { status: "draft", publishedAt: null },
      de: { status: "published", publishedAt: at(3) },
    });
    const again = await p.ok("POST", "/v2/model-instances/bulk-publish", { instanceIds: [ready], locales: ["de"] });
    expect(again.results).toEqual([{ id: ready, result: "skipped" }]);
    const off = await p.ok("POST", "/v2/model-instances/bulk-unpublish", { instanceIds: [ready], locales: ["en"] });
    expect(off.results).toEqual([{ id: ready, result: "skipped" }]);
  });

  test("a scheduled action keeps its locales and publishes them when it runs", async () => {
    const id = await post("Later", "Später");
    const made = await p.ok("POST", "/v2/scheduled-actions", {
      action: "publish",
      targets: [{ type: "instance", id }],
      wallTime: "2026-11-21T12:30:00",
      timezone: "UTC",
      locales: ["de"],
    });
    expect(made.actions[0].locales).toEqual(["de"]);
    const bad = await p.json("POST", "/v2/scheduled-actions", {
      action: "publish",
      targets: [{ type: "instance", id }],
      wallTime: "2026-11-21T12:30:00",
      timezone: "UTC",
      locales: ["xx-invalid-"],
    });
    expect([bad.status, bad.body.code, bad.body.field]).toEqual([400, "invalid_locale", "locales[0]"]);
    p.h.clock.set(Date.parse(at(30)));
    expect(runDueActions(p.h.capa.services, p.h.clock.now())).toBe(1);
    const e = await p.ok("GET", `/v2/model-instances/${id}`);
    expect(e.locales).toEqual({ en: { status: "draft", publishedAt: null }, de: { status: "published", publishedAt: at(30) } });
    expect((await p.ok("GET", `/v2/scheduled-actions/${made.actions[0].id}`)).status).toBe("done");
  });
});
