// A project's locales as every part of Capa reads them (decisions.md 13; docs/localization.md):
// BCP 47 codes in their canonical case, the default, and each locale's effective fallback chain.
// Pure and read-side: read workers import it through the model catalogue.

/** One locale of a project as stored and answered. */
export interface LocaleDef {
  code: string;
  name: string;
  /** Other locales of the project, in the order a value is looked for when this one has none. */
  fallback: string[];
}

/** What the `locales` setting stores, and GET /v2/locales answers. */
export interface StoredLocales {
  default: string;
  locales: LocaleDef[];
}

/** A project's locales, ready for lookups. */
export interface ProjectLocales {
  default: string;
  list: LocaleDef[];
  /** Codes in the project's order. */
  codes: string[];
  /** Each code's effective chain: itself, its fallbacks in order, then theirs, each code once. */
  chains: Map<string, string[]>;
  /** The canonical code by its lower-case form (tags compare without regard to case). */
  byLower: Map<string, string>;
}

/** Every project starts with English alone. */
export const DEFAULT_LOCALES: StoredLocales = { default: "en", locales: [{ code: "en", name: "English", fallback: [] }] };

/** The longest code accepted: BCP 47 asks implementations to handle at least 35 characters. */
export const MAX_CODE_LENGTH = 35;

/** A project holds at most this many locales. */
export const MAX_LOCALES = 50;

/** Letters, digits and hyphens only: a code is inlined into JSON paths, so nothing else may pass. */
const SHAPE = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

/**
 * The canonical form of a BCP 47 tag (`de-ch` -> `de-CH`, `zh-hant-tw` -> `zh-Hant-TW`), or null
 * when it is not a well-formed tag of letters, digits and hyphens of at most 35 characters.
 * Intl does the canonical casing; the shape check keeps private-use and odd forms out.
 */
export function canonicalCode(raw: string): string | null {
  if (raw.length === 0 || raw.length > MAX_CODE_LENGTH || !SHAPE.test(raw)) return null;
  try {
    const [c] = Intl.getCanonicalLocales(raw);
    return c && SHAPE.test(c) && c.length <= MAX_CODE_LENGTH ? c : null;
  } catch {
    return null;
  }
}

/**
 * The effective chain of `code`: the code, its fallbacks in the order listed, then each of
 * those locales' own fallbacks in turn (breadth first), each code once. A locale's own list comes
 * before what its fallbacks fall back to: `de-CH -> [de, fr]` with `de -> [en]` reads de-CH, de,
 * fr, en. Cycles are refused when locales are saved; the visited set only guards the walk.
 */
export function effectiveChain(list: LocaleDef[], code: string): string[] {
  const byCode = new Map(list.map((l) => [l.code, l]));
  const out: string[] = [code];
  for (let i = 0; i < out.length; i++) {
    for (const f of byCode.get(out[i]!)?.fallback ?? []) if (!out.includes(f) && byCode.has(f)) out.push(f);
  }
  return out;
}

/** A project's locales from the stored setting (absent: English alone). */
export function projectLocales(stored: StoredLocales | null): ProjectLocales {
  const s = stored ?? DEFAULT_LOCALES;
  const codes = s.locales.map((l) => l.code);
  return {
    default: s.default,
    list: s.locales,
    codes,
    chains: new Map(codes.map((c) => [c, effectiveChain(s.locales, c)])),
    byLower: new Map(codes.map((c) => [c.toLowerCase(), c])),
  };
}

/** The hint of an invalid_locale refusal: the codes the project has. */
export function knownCodesHint(pl: ProjectLocales, param: string): string {
  return `Known locales: ${pl.codes.join(", ")}. Example: ${param}=${pl.codes[pl.codes.length - 1]}`;
}
