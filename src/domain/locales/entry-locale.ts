// The locale a /v2 entry route reads and writes in (decisions.md 13, "Writes on /v2"): `?locale=`
// names one (default: the project's default), `?locale=*` reads and writes localized fields as
// objects keyed by code. Shared fields read and write as always in both.
import { fail } from "../../errors.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels } from "../models/catalog.ts";
import { canonicalCode, type ProjectLocales } from "./codes.ts";

/** The locale of a management read or write. */
export interface EntryLocale {
  /** The locale read and written; the project's default for `*`. */
  code: string;
  /** `?locale=*`: localized fields as objects keyed by code. */
  all: boolean;
  /** The project's codes, in order. */
  codes: string[];
  default: string;
}

/** The project's default locale, as an EntryLocale. */
export function defaultLocale(pl: ProjectLocales): EntryLocale {
  return { code: pl.default, all: false, codes: pl.codes, default: pl.default };
}

/**
 * A code of the project from what a client sent, or `400 invalid_locale` naming `field` and the
 * project's codes (a malformed, over-long or unknown code alike).
 */
export function projectCode(pl: ProjectLocales, raw: unknown, field: string): string {
  const canonical = typeof raw === "string" ? canonicalCode(raw) : null;
  const code = canonical === null ? undefined : pl.byLower.get(canonical.toLowerCase());
  if (code === undefined) {
    const shown = typeof raw === "string" ? JSON.stringify(raw.slice(0, 60)) : "that value";
    fail("invalid_locale", {
      message: `${field}: ${shown} is not a locale of this project; its locales are ${pl.codes.join(", ")}.`,
      param: field,
      extra: { field, locales: pl.codes },
    });
  }
  return code;
}

/**
 * Every `locale` of a request's query: undefined when absent, the value when sent once, the list
 * when repeated (the router keeps only one of repeated keys, so they are read from the URL).
 */
export function localeParam(request: Request): string | string[] | undefined {
  const all = new URL(request.url).searchParams.getAll("locale");
  return all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
}

/** The `?locale=` of an entry route: absent is the default, `*` every locale. */
export function entryLocaleOf(h: ProjectHandle, raw: unknown): EntryLocale {
  const pl = allModels(h).locales;
  if (raw === undefined) return defaultLocale(pl);
  if (Array.isArray(raw)) fail("invalid_body", { message: `locale is sent ${raw.length} times; send it once.`, param: "locale", extra: { field: "locale" } });
  if (raw === "*") return { code: pl.default, all: true, codes: pl.codes, default: pl.default };
  return { code: projectCode(pl, raw, "locale"), all: false, codes: pl.codes, default: pl.default };
}

/** A body's `locales` list (publish, unpublish, bulk, scheduled actions): each a code of the project, once. */
export function localesOf(h: ProjectHandle, raw: readonly string[] | undefined | null, field = "locales"): string[] | null {
  if (raw === undefined || raw === null) return null;
  const pl = allModels(h).locales;
  const out: string[] = [];
  raw.forEach((c, i) => {
    const code = projectCode(pl, c, `${field}[${i}]`);
    if (!out.includes(code)) out.push(code);
  });
  return out;
}
