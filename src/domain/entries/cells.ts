// Values as the entry list shows them, for the export (export.ts): text, numbers and booleans as
// they are, a date as saved, a relation by the related entry's title, a media value by its file
// name, a list as a list of those, a mixed value as JSON text; the system columns as their words
// (status, times, who saved the latest version by name). Related titles and file names are
// looked up once per chunk of rows. A localized field is its value in the locale exported (the one
// the list shows), and an entry with localized fields has that locale's status and publishedAt.
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, type Model } from "../models/catalog.ts";
import { isLibraryRef, itemType, MEDIA_TYPES, type FieldDef } from "../models/fields.ts";
import { titleOf } from "./publish.ts";
import type { Column } from "./columns.ts";
import { draftActors, editorsOf, type Editor } from "./editors.ts";
import type { EntryRow } from "./service.ts";
import { statusOf } from "./status.ts";
import { isLocalizedModel } from "../models/catalog.ts";
import { parseState } from "../locales/state.ts";
import { valueIn } from "../locales/values.ts";

export type Cell = string | number | boolean | null | Cell[];

/** A person or key as the list names them: a person's name, else their e-mail; a key's name. */
export function editorWords(e: Editor | undefined): string | null {
  if (!e) return null;
  if (e.kind === "user") return e.name || e.email;
  if (e.kind === "api_key") return e.name ? `API key ${e.name}` : "An API key";
  return e.kind === "schedule" ? "Scheduled action" : "System";
}

interface Lookups {
  titles: Map<string, string | null>;
  files: Map<string, string>;
  editors: Map<string, Editor>;
  actors: Map<string, string | null>;
}

/** The related titles, file names and editors a chunk of rows needs. */
function lookups(s: Services, h: ProjectHandle, m: Model, columns: Column[], rows: EntryRow[], code: string): Lookups {
  const relIds = new Set<string>();
  const mediaIds = new Set<string>();
  const fields = columns.map((c) => m.fields.find((f) => f.id === c.fieldId)).filter((f): f is FieldDef => f !== undefined);
  for (const r of rows) {
    const data = JSON.parse(r.draftData) as Record<string, unknown>;
    for (const f of fields) {
      const v = valueIn(data, f, code);
      const items = f.type === "array" ? (Array.isArray(v) ? v : []) : [v];
      for (const x of items) {
        if (itemType(f) === "relation" && typeof x === "string") relIds.add(x);
        if (MEDIA_TYPES.has(itemType(f)) && isLibraryRef(x)) mediaIds.add(x.id);
      }
    }
  }
  const models = allModels(h).byId;
  const titles = new Map<string, string | null>();
  if (relIds.size) {
    const found = h.sqlite
      .query("SELECT id, model_id AS modelId, draft_data AS data FROM entries WHERE deleted_at IS NULL AND id IN (SELECT value FROM json_each(?))")
      .all(JSON.stringify([...relIds])) as { id: string; modelId: string; data: string }[];
    for (const e of found) {
      const target = models.get(e.modelId);
      titles.set(e.id, target ? titleOf(target, JSON.parse(e.data), code) : null);
    }
  }
  const files = new Map<string, string>();
  if (mediaIds.size) {
    const found = h.sqlite.query("SELECT id, filename FROM media WHERE id IN (SELECT value FROM json_each(?))").all(JSON.stringify([...mediaIds])) as {
      id: string;
      filename: string;
    }[];
    for (const f of found) files.set(f.id, f.filename);
  }
  const wantsEditor = columns.some((c) => c.key === "$lastEditedBy");
  const actors = wantsEditor
    ? draftActors(
        h,
        rows.map((r) => r.draftVersionId),
      )
    : new Map<string, string | null>();
  return { titles, files, actors, editors: wantsEditor ? editorsOf(s, actors.values()) : new Map() };
}

/** One value of a field as the list shows it. */
function itemCell(f: FieldDef, v: unknown, l: Lookups): Cell {
  if (v === undefined || v === null) return null;
  const t = itemType(f);
  if (t === "relation") return typeof v === "string" ? (l.titles.get(v) ?? v) : null;
  if (MEDIA_TYPES.has(t)) {
    if (isLibraryRef(v)) return l.files.get(v.id) ?? v.id;
    const url = (v as { url?: unknown }).url;
    return typeof url === "string" ? url : null;
  }
  if (t === "mixed") return JSON.stringify(v);
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  return JSON.stringify(v);
}

function systemCell(c: Column, r: EntryRow, l: Lookups, mine: { status: string; publishedAt: string | null } | null): Cell {
  switch (c.key) {
    case "$id":
      return r.id;
    case "$status":
      return mine ? mine.status : statusOf(r);
    case "$createdAt":
      return r.createdAt;
    case "$updatedAt":
      return r.updatedAt;
    case "$publishedAt":
      return mine ? mine.publishedAt : r.publishedAt;
    case "$tags":
      return JSON.parse(r.draftTags) as string[];
    case "$lastEditedBy": {
      const by = l.actors.get(r.draftVersionId);
      return by ? editorWords(l.editors.get(by)) : null;
    }
    default:
      return null;
  }
}

/** The cells of a chunk of rows, one list per row in the columns' order. */
export function cellsOf(s: Services, h: ProjectHandle, m: Model, columns: Column[], rows: EntryRow[], code: string): Cell[][] {
  const l = lookups(s, h, m, columns, rows, code);
  const localized = isLocalizedModel(m);
  return rows.map((r) => {
    const data = JSON.parse(r.draftData) as Record<string, unknown>;
    // The locale's own state (a locale it holds nothing in and never published is a draft there), as entryRecord says.
    const own = localized ? parseState(r.localeState)?.[code] : undefined;
    const mine = localized ? { status: own?.status ?? "draft", publishedAt: own?.publishedAt ?? null } : null;
    return columns.map((c) => {
      if (c.system) return systemCell(c, r, l, mine);
      const f = m.fields.find((x) => x.id === c.fieldId)!;
      const v = valueIn(data, f, code);
      if (f.type === "array") return Array.isArray(v) ? v.map((x) => itemCell(f, x, l)) : null;
      return itemCell(f, v, l);
    });
  });
}
