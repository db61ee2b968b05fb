// The locale of an entries read (decisions.md 13, "Reads"; docs/localization.md): which locale is
// read, the chain its values fall back along, and the SQL a read of a localized model adds: a
// production key sees an entry when a locale of the chain is published, and the status,
// publishedAt and `$locales` of the locale read. A project without a localized model gets none of
// it, so its reads run the statements they always ran.
import { fail } from "../../errors.ts";
import type { Catalog, Model } from "../models/catalog.ts";
import { isLocalizedModel } from "../models/catalog.ts";
import { canonicalCode, knownCodesHint, type ProjectLocales } from "../locales/codes.ts";
import type { ListArgs } from "./args.ts";
import type { Vis } from "./names.ts";

/** The locale of one read. */
export interface ReadLocale {
  /** The locale read (the default for `*` and when none is asked for). */
  code: string;
  /** The code, then the locales its values fall back to, in order; `[default]` for `*`. */
  chain: string[];
  /** `locale=*`: every locale's own value keyed by code, no fallback. */
  all: boolean;
  /** The project's codes in order (the keys of a `*` answer). */
  codes: string[];
  /** The request named a locale or a fallback: the answer says which (meta.locale, meta.fallbacks). */
  asked: boolean;
  /** The project has a localized model; otherwise no locale SQL is ever added. */
  active: boolean;
  /**
   * The chain of another locale of this read (GraphQL: a localized field's own `locale` argument):
   * that locale's own chain, or the read's fallbackLocale applied to it. Refuses a code the
   * project does not have, as `locale` does.
   */
  chainFor(raw: string): string[];
}

/** One locale code of a read parameter, or 400 invalid_locale naming the parameter and the project's codes. */
function codeOf(pl: ProjectLocales, raw: string, param: string): string {
  const canonical = canonicalCode(raw);
  const code = canonical === null ? undefined : pl.byLower.get(canonical.toLowerCase());
  if (code !== undefined) return code;
  const shown = JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}...` : raw);
  const why = canonical === null ? "is not a BCP 47 language tag of at most 35 characters" : "is not a locale of this project";
  fail("invalid_locale", { message: `${param}: ${shown} ${why}.`, param, hint: knownCodesHint(pl, param) });
}

/**
 * The locale of a read from its arguments (locale and fallbackLocale as sent), checked against
 * the project. A read that names neither (every read of a project with one locale) shares one
 * value made once per catalogue, so it costs nothing per read.
 */
export function readLocaleOf(cat: Catalog, args: Pick<ListArgs, "locale" | "fallbackLocale">): ReadLocale {
  if (args.locale === null && args.fallbackLocale === null) {
    cat.defaultRead ??= make(cat, args);
    return cat.defaultRead as ReadLocale;
  }
  return make(cat, args);
}

function make(cat: Catalog, args: Pick<ListArgs, "locale" | "fallbackLocale">): ReadLocale {
  const pl = cat.locales;
  let fallback: string[] | "none" | null = null;
  if (Array.isArray(args.fallbackLocale)) {
    if (args.fallbackLocale.length > pl.codes.length) {
      fail("invalid_locale", {
        message: `fallbackLocale lists ${args.fallbackLocale.length} locales; the project has ${pl.codes.length}.`,
        param: "fallbackLocale",
        hint: knownCodesHint(pl, "fallbackLocale"),
      });
    }
    fallback = args.fallbackLocale.map((raw) => codeOf(pl, raw, "fallbackLocale"));
  } else fallback = args.fallbackLocale;
  const chainOf = (code: string): string[] => {
    if (fallback === null) return pl.chains.get(code) ?? [code];
    if (fallback === "none") return [code];
    return [code, ...fallback.filter((c, i) => c !== code && fallback!.indexOf(c) === i)];
  };
  const base = {
    codes: pl.codes,
    asked: args.locale !== null || args.fallbackLocale !== null,
    active: cat.localized,
    chainFor: (raw: string) => chainOf(codeOf(pl, raw, "locale")),
  };
  if (args.locale === "*") return { ...base, code: pl.default, chain: [pl.default], all: true };
  const code = args.locale === null ? pl.default : codeOf(pl, args.locale, "locale");
  return { ...base, code, chain: chainOf(code), all: false };
}

/** The locale of a read for a model: null when the model keeps no localized value (its SQL stays as it was). */
export function localeFor(loc: ReadLocale | undefined, m: Pick<Model, "fields">): ReadLocale | null {
  return loc?.active && isLocalizedModel(m) ? loc : null;
}

/** The locale whose status and publishedAt a read of a model shows: none for `*`, which reads every locale (the entry's own). */
export function oneLocaleFor(loc: ReadLocale | undefined, m: Pick<Model, "fields">): ReadLocale | null {
  const l = localeFor(loc, m);
  return l && !l.all ? l : null;
}

const at = (a: string, code: string, key: string) => `json_extract(${a}.locale_state, '$."${code}".${key}')`;

/** COALESCE of parts (one part alone as itself). */
const coalesce = (parts: string[]) => (parts.length === 1 ? parts[0]! : `COALESCE(${parts.join(", ")})`);

/**
 * The visibility of a row for a read in `loc` (null: as the view says). A production key sees an
 * entry of a localized model when a locale of the chain is published; an entry of any other model
 * (its state is null) as before. `*` sees every published entry.
 */
export function visibleIn(vis: Vis, a: string, loc: ReadLocale | null): string {
  const base = vis.visible(a);
  if (!loc || !vis.prod || loc.all) return base;
  const published = `${a}.locale_state IS NULL OR ${coalesce(loc.chain.map((c) => at(a, c, "publishedAt")))} IS NOT NULL`;
  // A preview token's drafts stay visible: the view's own clause already admits them.
  return vis.tag === "v" ? `${base} AND (${published} OR ${a}.published_version_id IS NULL)` : `${base} AND (${published})`;
}

/**
 * The status of the locale read: for a production key the first published locale of the chain
 * (the one its values come from), for others the first the entry holds; a locale the entry
 * holds nothing in is a draft there. `entry` is the entry-level status of any other entry.
 */
export function localeStatusExpr(vis: Vis, a: string, loc: ReadLocale, entry: string): string {
  const parts = loc.chain.map((c) => (vis.prod ? `CASE WHEN ${at(a, c, "publishedAt")} IS NOT NULL THEN ${at(a, c, "status")} END` : at(a, c, "status")));
  return `(CASE WHEN ${a}.locale_state IS NULL THEN ${entry} ELSE COALESCE(${parts.join(", ")}, 'draft') END)`;
}

/** publishedAt of the locale read: the first published locale of the chain (null when none is). */
export function localePublishedAtExpr(a: string, loc: ReadLocale): string {
  return `(CASE WHEN ${a}.locale_state IS NULL THEN ${a}.published_at ELSE ${coalesce(loc.chain.map((c) => at(a, c, "publishedAt")))} END)`;
}

/** `$locales` as a JSON list: the codes the draft holds values in, or for a production key the published ones. */
export function localesListExpr(vis: Vis, a: string): string {
  const cond = vis.prod ? "json_extract(k.value, '$.publishedAt') IS NOT NULL" : "json_extract(k.value, '$.draft')";
  return `(SELECT json_group_array(k.key) FROM json_each(${a}.locale_state) k WHERE ${cond})`;
}

/** A row's locale state as rendering reads it. */
export interface RowState {
  [code: string]: { status: string; publishedAt: string | null; draft: boolean };
}

/** The status, publishedAt and `$locales` of a rendered entry, mirroring the SQL above. */
export function renderedLocale(vis: Vis, loc: ReadLocale, state: RowState): { status: string; publishedAt: string | null; locales: string[] } {
  const first = loc.chain.find((c) => state[c] !== undefined && (!vis.prod || state[c]!.publishedAt !== null));
  const published = loc.chain.find((c) => state[c]?.publishedAt);
  const locales = Object.keys(state).filter((c) => (vis.prod ? state[c]!.publishedAt !== null : state[c]!.draft));
  return { status: first ? state[first]!.status : "draft", publishedAt: published ? state[published]!.publishedAt : null, locales };
}
