// A project's locales (decisions.md 13): GET and PUT /v2/locales. A saved list is checked whole
// (codes are BCP 47 tags, once each; fallbacks name other locales of the list, with no cycle; the
// default is listed and falls back to nothing), each refusal `400 invalid_locale` naming its path.
// Removing a locale that entries hold values in is `409 locale_in_use` with counts, unless
// `?force=true`, which drops those values from every copy and version. A change purges
// `project:<id>` at the edge and tells every cache: the default and the chains change answers.
import { fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { purgeProject } from "../edge/changes.ts";
import { actorFrom } from "../events/outbox.ts";
import { allModels, isLocalizedModel, type Model } from "../models/catalog.ts";
import { write } from "../unit-of-work.ts";
import { canonicalCode, DEFAULT_LOCALES, type LocaleDef, type StoredLocales } from "./codes.ts";

/** The body of PUT /v2/locales, shaped by LocalesBody. */
export interface LocalesInput {
  default: string;
  locales: { code: string; name?: string; fallback?: string[] }[];
}

function bad(path: string, message: string): never {
  fail("invalid_locale", { message, extra: { path } });
}

/** GET /v2/locales: the project's locales as stored (English alone until changed). */
export function getLocales(h: ProjectHandle): StoredLocales {
  const pl = allModels(h).locales;
  return { default: pl.default, locales: pl.list };
}

/** The English name of a language tag, for a locale sent without a name. */
function nameOf(code: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Checks a locales body and answers it canonical: codes in their canonical case, names filled in. */
export function checkLocales(body: LocalesInput): StoredLocales {
  const codes: string[] = [];
  const list: LocaleDef[] = body.locales.map((l, i) => {
    const code = canonicalCode(l.code);
    if (code === null) bad(`locales[${i}].code`, `locales[${i}].code: ${JSON.stringify(l.code)} is not a BCP 47 language tag (such as en, de-CH, pt-BR)`);
    if (codes.some((c) => c.toLowerCase() === code.toLowerCase())) bad(`locales[${i}].code`, `locales[${i}].code: ${code} is listed twice`);
    codes.push(code);
    return { code, name: l.name ?? nameOf(code), fallback: [] };
  });
  const def = canonicalCode(body.default);
  const defCode = def === null ? undefined : codes.find((c) => c.toLowerCase() === def.toLowerCase());
  if (defCode === undefined) bad("default", `default: ${JSON.stringify(body.default)} is not one of the locales (${codes.join(", ")})`);
  body.locales.forEach((l, i) => {
    const own = list[i]!;
    (l.fallback ?? []).forEach((raw, j) => {
      const path = `locales[${i}].fallback[${j}]`;
      const c = canonicalCode(raw);
      const code = c === null ? undefined : codes.find((x) => x.toLowerCase() === c.toLowerCase());
      if (code === undefined) bad(path, `${path}: ${JSON.stringify(raw)} is not one of the locales (${codes.join(", ")})`);
      if (code === own.code) bad(path, `${path}: ${code} cannot fall back to itself`);
      if (own.fallback.includes(code)) bad(path, `${path}: ${code} is listed twice`);
      own.fallback.push(code);
    });
    if (own.code === defCode && own.fallback.length > 0)
      bad(`locales[${i}].fallback`, `locales[${i}].fallback: the default locale ${defCode} falls back to nothing`);
  });
  checkCycles(list);
  return { default: defCode, locales: list };
}

/** Refuses a fallback cycle (de -> de-CH -> de), naming the fallback that closes it. */
function checkCycles(list: LocaleDef[]): void {
  const index = new Map(list.map((l, i) => [l.code, i]));
  const state = new Map<string, "open" | "done">();
  const visit = (code: string, trail: string[]) => {
    state.set(code, "open");
    const i = index.get(code)!;
    list[i]!.fallback.forEach((f, j) => {
      if (state.get(f) === "open") {
        const loop = [...trail.slice(trail.indexOf(f)), code, f].join(" -> ");
        bad(`locales[${i}].fallback[${j}]`, `locales[${i}].fallback[${j}]: the fallbacks make a cycle (${loop})`);
      }
      if (!state.has(f)) visit(f, [...trail, code]);
    });
    state.set(code, "done");
  };
  for (const l of list) if (!state.has(l.code)) visit(l.code, []);
}

/** The models with localized fields, each with the JSON paths of its localized slots in `code`. */
function slotPaths(models: Model[], code: string): { model: Model; paths: string[] }[] {
  return models.filter(isLocalizedModel).map((m) => ({ model: m, paths: m.fields.filter((f) => f.localized).map((f) => `$."${f.id}"."${code}"`) }));
}

/**
 * How many entries (in the trash too) hold a value in `code` or have it published, and how many
 * values their copies hold: each draft slot, and each published slot that differs from the draft's.
 */
function useOf(h: ProjectHandle, models: Model[], code: string): { code: string; entries: number; values: number } {
  let values = 0;
  for (const { model, paths } of slotPaths(models, code)) {
    const cols = paths.map((_, i) => {
      const p = `?${i + 2}`;
      return `(json_type(draft_data, ${p}) IS NOT NULL) + (json_type(published_data, ${p}) IS NOT NULL AND json_extract(published_data, ${p}) IS NOT json_extract(draft_data, ${p}))`;
    });
    const n = h.sqlite.query(`SELECT coalesce(sum(${cols.join(" + ")}), 0) AS n FROM entries WHERE model_id = ?1`).get(model.id, ...paths) as { n: number };
    values += n.n;
  }
  const entries = (h.sqlite.query("SELECT count(*) AS n FROM entries WHERE json_type(locale_state, ?) IS NOT NULL").get(`$."${code}"`) as { n: number }).n;
  return { code, entries, values };
}

/** Drops every value of `code` from the entries of localized models: drafts, published copies, versions, states. */
function dropLocale(s: Services, h: ProjectHandle, models: Model[], code: string, actor: string): void {
  for (const { model, paths } of slotPaths(models, code)) {
    const args = paths.map((_, i) => `?${i + 2}`).join(", ");
    h.sqlite
      .query(
        `UPDATE entries SET draft_data = json_remove(draft_data, ${args}), draft_keys = json_remove(draft_keys, ${args}),
           published_data = CASE WHEN published_data IS NULL THEN NULL ELSE json_remove(published_data, ${args}) END,
           published_keys = CASE WHEN published_keys IS NULL THEN NULL ELSE json_remove(published_keys, ${args}) END
         WHERE model_id = ?1`,
      )
      .run(model.id, ...paths);
    h.sqlite
      .query(`UPDATE entry_versions SET data = json_remove(data, ${args}) WHERE entry_id IN (SELECT id FROM entries WHERE model_id = ?1)`)
      .run(model.id, ...paths);
  }
  h.sqlite.query("UPDATE entries SET locale_state = json_remove(locale_state, ?) WHERE locale_state IS NOT NULL").run(`$."${code}"`);
  // An entry published in the removed locale alone is not published in any locale now: it goes offline whole.
  const offline = h.sqlite
    .query(
      `SELECT e.id, e.model_id AS modelId FROM entries e WHERE e.published_version_id IS NOT NULL AND e.locale_state IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM json_each(e.locale_state) j WHERE json_extract(j.value, '$.publishedAt') IS NOT NULL)`,
    )
    .all() as { id: string; modelId: string }[];
  write(s, h, (tx) => {
    for (const e of offline) {
      h.sqlite
        .query(
          `UPDATE entries SET published_version_id = NULL, published_version = NULL, published_data = NULL, published_tags = NULL,
             published_folder = NULL, published_at = NULL, published_updated_at = NULL, published_keys = NULL WHERE id = ?`,
        )
        .run(e.id);
      const m = models.find((x) => x.id === e.modelId)!;
      tx.emit({
        type: "instance.unpublished",
        actor: actorFrom(actor),
        data: { instanceId: e.id, modelId: m.id, modelNamespace: m.namespace, scheduledActionId: null, locales: [code] },
        links: { self: `${s.config.apiUrl}/v2/agent/model-instances/${e.id}` },
      });
    }
  });
}

/**
 * PUT /v2/locales: replaces the project's locales. Removing a locale that holds values answers
 * `409 locale_in_use` (each removed locale with its entries and values) unless `force`.
 */
export function putLocales(s: Services, h: ProjectHandle, body: LocalesInput, force: boolean, actor: string): StoredLocales {
  const next = checkLocales(body);
  const cat = allModels(h);
  const removed = cat.locales.codes.filter((c) => !next.locales.some((l) => l.code === c));
  const uses = removed.map((c) => useOf(h, cat.list, c)).filter((u) => u.entries > 0 || u.values > 0);
  if (uses.length > 0 && !force) {
    const said = uses.map((u) => `${u.code} (${u.entries} ${u.entries === 1 ? "entry" : "entries"}, ${u.values} ${u.values === 1 ? "value" : "values"})`);
    fail("locale_in_use", {
      message: `Entries hold values in ${said.join(", ")}; send ?force=true to drop them.`,
      extra: { locales: uses },
    });
  }
  write(s, h, (tx) => {
    for (const u of uses) dropLocale(s, h, cat.list, u.code, actor);
    const same = JSON.stringify(next) === JSON.stringify(DEFAULT_LOCALES);
    if (same) h.sqlite.query("DELETE FROM settings WHERE name = 'locales'").run();
    else h.sqlite.query("INSERT INTO settings (name, value) VALUES ('locales', ?1) ON CONFLICT(name) DO UPDATE SET value = ?1").run(JSON.stringify(next));
    // Read workers, GraphQL schemas and the render cache all read the locales through the model catalogue.
    h.cache.delete("models");
    tx.modelsChanged();
    tx.contentChanged();
  });
  // The default and every chain change answers of any model: the edge drops the project's answers.
  purgeProject(s, h.id);
  return getLocales(h);
}
