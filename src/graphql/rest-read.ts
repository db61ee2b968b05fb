// The REST side of a translated root field: the `GET /api/entries/...` request it becomes (its
// query string kept readable, since it is shown in `extensions.svc.rest` and recorded for
// Svc-Page), and the read's outcome back as data, its errors naming GraphQL arguments.
import { AppError } from "../errors.ts";
import type { ReadOutcome } from "../domain/reads/job.ts";

/** One entries read a root field asks for. */
export interface RestRead {
  ns: string;
  id: string | null;
  /** The query string, `?` included (or empty). */
  search: string;
}

/** The URL a read is shown as in `extensions.svc.rest`. */
export function restUrl(r: RestRead): string {
  return `/api/entries/${encodeURIComponent(r.ns)}${r.id === null ? "" : `/${r.id}`}${r.search}`;
}

/** A query string from ordered pairs, escaping only what must be escaped, so the URL stays readable. */
export function queryString(pairs: [string, string][]): string {
  if (pairs.length === 0) return "";
  const enc = (v: string) =>
    encodeURIComponent(v).replace(/%2C/g, ",").replace(/%28/g, "(").replace(/%29/g, ")").replace(/%24/g, "$").replace(/%2A/g, "*").replace(/%3A/g, ":");
  return `?${pairs.map(([k, v]) => `${k}=${enc(v)}`).join("&")}`;
}

/** REST parameter names as the GraphQL arguments that stand for them. */
function argParam(param: string | undefined, backward: boolean): string | undefined {
  if (param === "where") return "filter";
  if (param === "limit") return backward ? "last" : "first";
  if (param === "select") return undefined;
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
