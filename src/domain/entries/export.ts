// Export of a selection (issue 27, lists): the entries the list selects (instanceIds picked one by
// one, or "all N that match" by where, q and status), in the list's order, as CSV or JSON with the
// chosen columns and values as the list shows them (cells.ts). Everything is checked before the
// first byte; then the body is streamed 500 entries at a time by keyset, so memory does not grow
// with the selection and a large export starts at once.
import type { Static } from "@sinclair/typebox";
import { badField } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { allModels, type Model } from "../models/catalog.ts";
import type { EntryLocale } from "../locales/entry-locale.ts";
import type { ExportBody } from "./list-bodies.ts";
import { cellsOf, type Cell } from "./cells.ts";
import { columnOf, defaultColumns, type Column } from "./columns.ts";
import { keysetPage, rowsOf } from "./list.ts";
import { listOrder, type ListOrder } from "./list-order.ts";
import { countSelection, selectionOf, type Selection } from "./selection.ts";

/** Entries read and written per step of the stream. */
const CHUNK = 500;

/** What the route sends: the headers' facts and the body. */
export interface ExportAnswer {
  contentType: string;
  filename: string;
  total: number;
  body: ReadableStream<Uint8Array>;
}

/** The columns asked for, each one of the model's; a key it has not (any more) is refused naming it. */
function chosenColumns(m: Model, keys: string[] | undefined): Column[] {
  if (keys === undefined) return defaultColumns(m);
  return keys.map((k, i) => columnOf(m, k) ?? badField(`columns[${i}]`, `columns[${i}] names no column of the model ${m.namespace}: ${k}`));
}

/**
 * A CSV field (RFC 4180): quoted when it holds a comma, quote or line break. Text that a
 * spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) gets a
 * leading apostrophe, as OWASP advises, so opening an export never runs what an entry holds.
 */
export function csvField(c: Cell): string {
  if (c === null) return "";
  if (Array.isArray(c)) return csvField(c.map((x) => (x === null ? "" : Array.isArray(x) ? JSON.stringify(x) : String(x))).join(", "));
  let t = String(c);
  if (typeof c === "string" && /^[=+\-@\t\r]/.test(t)) t = `'${t}`;
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

function csvLine(cells: Cell[]): string {
  return `${cells.map(csvField).join(",")}\r\n`;
}

function jsonLine(columns: Column[], cells: Cell[], first: boolean): string {
  const o: Record<string, Cell> = {};
  columns.forEach((c, i) => {
    o[c.key] = cells[i]!;
  });
  return `${first ? "" : ",\n"}${JSON.stringify(o)}`;
}

/** Builds the export: refuses a bad body now, then streams. */
export function exportEntries(s: Services, h: ProjectHandle, body: Static<typeof ExportBody>, loc?: EntryLocale): ExportAnswer {
  if (body.instanceIds !== undefined && (body.where !== undefined || body.q !== undefined || body.status !== undefined)) {
    badField("instanceIds", "Name entries by instanceIds, or by where, q and status, not both");
  }
  const sel: Selection = selectionOf(h, { model: body.model, where: body.where, q: body.q, status: body.status, ids: body.instanceIds, locale: loc });
  const m = sel.model!;
  const order: ListOrder = listOrder(h, m, body.sort, loc);
  // The locale exported: the one listed (`*`: the default's values, as the list's filters read them).
  const code = loc?.code ?? allModels(h).locales.default;
  const columns = chosenColumns(m, body.columns);
  const total = countSelection(h, sel);
  const csv = body.format === "csv";
  const enc = new TextEncoder();
  let anchor: { vals: unknown[]; id: string } | null = null;
  let first = true;
  let done = false;
  // The file stays open while the stream runs, whatever the idle timer decides meanwhile.
  const held = s.projects.hold(h.id);
  let released = false;
  const release = () => {
    if (!released) s.projects.release(held);
    released = true;
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      // A BOM, so spreadsheet programs read the CSV as UTF-8; the header row names the columns.
      controller.enqueue(enc.encode(csv ? `\uFEFF${csvLine(columns.map((c) => c.label))}` : "["));
    },
    pull(controller) {
      if (done) return;
      try {
        const found = keysetPage(held, sel, order, anchor, CHUNK);
        const rows = rowsOf(
          held,
          found.map((r) => r.id as string),
        );
        const cells = cellsOf(s, held, m, columns, rows, code);
        let out = "";
        for (const c of cells) {
          out += csv ? csvLine(c) : jsonLine(columns, c, first);
          first = false;
        }
        if (found.length < CHUNK) {
          done = true;
          if (!csv) out += "]\n";
        } else {
          const last = found[found.length - 1]!;
          anchor = { vals: order.keys.map((_, i) => last[`s${i}`]), id: last.id as string };
        }
        if (out) controller.enqueue(enc.encode(out));
        if (done) {
          release();
          controller.close();
        }
      } catch (e) {
        release();
        controller.error(e);
      }
    },
    cancel() {
      release();
    },
  });
  const day = new Date(s.clock.now()).toISOString().slice(0, 10);
  return {
    contentType: csv ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
    filename: `${m.namespace}-${day}.${csv ? "csv" : "json"}`,
    total,
    body: stream,
  };
}
