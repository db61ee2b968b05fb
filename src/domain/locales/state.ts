// Each locale's state of an entry (decisions.md 13, "Status per locale"): draft, published or
// changed with its own publishedAt, kept in `entries.locale_state` and written with every save,
// publish and unpublish, so reads never compare copies. A locale's status compares its view of the
// draft (shared fields, tags, folder and its own slots) with its view of the published copy:
// publishing German pushes the shared fields live, so English may turn from changed to published.
import type { Model } from "../models/catalog.ts";
import { isLocalizedModel } from "../models/catalog.ts";
import type { EntryStatus } from "../entries/status.ts";
import { sameCopy } from "../entries/values.ts";
import { codesWithValues, localeView } from "./values.ts";

/** One locale's state. */
export interface LocaleStateEntry {
  status: EntryStatus;
  publishedAt: string | null;
  /** Whether the draft holds a value of a localized field in this locale. */
  draft: boolean;
}

export type LocaleState = Record<string, LocaleStateEntry>;

/** A copy of an entry as stored: data keyed by field id, tags, folder. */
export interface Copy {
  data: Record<string, unknown>;
  tags: string[];
  folder: string | null;
}

/** The stored state, parsed (null for an entry of a model without localized fields). */
export function parseState(text: string | null): LocaleState | null {
  return text === null ? null : (JSON.parse(text) as LocaleState);
}

/** When each locale was published, from a stored state. */
export function publishedAtOf(state: LocaleState | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [code, st] of Object.entries(state ?? {})) if (st.publishedAt !== null) out[code] = st.publishedAt;
  return out;
}

/**
 * The state of an entry of `m` from its draft, its published copy and when each locale was
 * published, as stored text; null for a model without localized fields. Locales are listed in
 * the project's order, each one whose draft holds a value or that is published.
 */
export function stateOf(
  m: Pick<Model, "fields">,
  codes: readonly string[],
  draft: Copy,
  published: Copy | null,
  publishedAt: Record<string, string>,
): string | null {
  if (!isLocalizedModel(m)) return null;
  const withValues = new Set(codesWithValues(m.fields, draft.data, codes));
  const out: LocaleState = {};
  for (const code of codes) {
    const at = published ? (publishedAt[code] ?? null) : null;
    const has = withValues.has(code);
    if (!has && at === null) continue;
    let status: EntryStatus = "draft";
    if (at !== null && published) {
      const view = (c: Copy) => ({ data: localeView(m.fields, c.data, code), tags: c.tags, folder: c.folder });
      status = sameCopy(view(draft), view(published)) ? "published" : "changed";
    }
    out[code] = { status, publishedAt: at, draft: has };
  }
  return JSON.stringify(out);
}

/** An entry row's two copies, as the state reads them. */
export function copiesOfRow(r: {
  draftData: string;
  draftTags: string;
  draftFolder: string | null;
  publishedVersionId: string | null;
  publishedData: string | null;
  publishedTags: string | null;
  publishedFolder: string | null;
}): { draft: Copy; published: Copy | null } {
  return {
    draft: { data: JSON.parse(r.draftData), tags: JSON.parse(r.draftTags), folder: r.draftFolder },
    published:
      r.publishedVersionId === null || r.publishedData === null
        ? null
        : { data: JSON.parse(r.publishedData), tags: JSON.parse(r.publishedTags ?? "[]"), folder: r.publishedFolder },
  };
}
