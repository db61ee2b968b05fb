// The REST side of a translated root field: the typed read it becomes, the `GET /api/entries/...`
// URL it is shown as (printed readable, for `extensions.svc.rest` and Svc-Page), and the read's
// outcome back as data, its errors naming GraphQL arguments.
import { AppError } from "../errors.ts";
import type { ReadOutcome } from "../domain/reads/job.ts";
import { printArgs, type ReadArgs } from "../domain/reads/args.ts";

/** One entries read a root field asks for: the model and the typed read (args.ts). */
export interface RestRead {
  ns: string;
  args: ReadArgs;
  /** The rows' cursors are needed (a connection's edges or pageInfo is selected). */
  rowCursors?: boolean;
  /** restUrl's answer, kept: a planned read is run by every request of its plan. */
  url?: string;
}

/** The URL a read is shown as in `extensions.svc.rest`, printed from its arguments. */
export function restUrl(r: RestRead): string {
  r.url ??= `/api/entries/${encodeURIComponent(r.ns)}${r.args.kind === "item" ? `/${r.args.id}` : ""}${printArgs(r.args)}`;
  return r.url;
}

/** REST parameter names as the GraphQL arguments that stand for them. */
function argParam(param: string | undefined, backward: boolean): string | undefined {
  if (param === "where") return "filter";
  if (param === "limit") return backward ? "last" : "first";
  if (param === "select") return undefined;
  if (param === "fallbackLocale") return "fallbackLocales";
  return param;
}

/** An outcome's data, or the read's error (REST parameters renamed to GraphQL arguments). */
export function dataOf(o: ReadOutcome, backward = false): unknown {
  if (!o.ok) {
    const e = o.error;
    // The only select a translated read can be refused for is nesting past REST's three levels.
    if (e.code === "invalid_select") {
      throw new AppError(e.code, {
        message: "Relations expand at most 3 levels below a root field, as REST select does.",
        hint: "Query deeper relations from another root field, e.g. entry(id:).",
      });
    }
    throw new AppError(e.code, { message: e.message, param: argParam(e.param, backward), hint: e.hint, extra: e.extra });
  }
  return JSON.parse(o.dataJson);
}
