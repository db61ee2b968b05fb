// GraphQL over HTTP's media type (decisions.md 12): when the client's Accept prefers
// `application/graphql-response+json` to `application/json`, the answer is labelled with it; the
// status and body are the same either way. Clients such as Apollo ask for it first, and read a
// 4xx answer of that type as GraphQL errors rather than a network error.

export const GRAPHQL_RESPONSE = "application/graphql-response+json";
const JSON_TYPE = "application/json";

/** The q-value Accept gives a media type: its own entry, else `application/*`, else `*\/*`; 0 when none. */
function qOf(accept: { type: string; q: number }[], type: string): number {
  const exact = accept.find((a) => a.type === type);
  if (exact) return exact.q;
  const sub = accept.find((a) => a.type === `${type.split("/")[0]}/*`);
  if (sub) return sub.q;
  return accept.find((a) => a.type === "*/*")?.q ?? 0;
}

/** Parses Accept into types with q-values (RFC 9110 12.5.1); a malformed q counts as 1, parameters other than q are ignored. */
function parseAccept(header: string): { type: string; q: number }[] {
  return header.split(",").flatMap((part) => {
    const [type, ...params] = part.split(";").map((x) => x.trim().toLowerCase());
    if (!type) return [];
    const qp = params.find((p) => p.startsWith("q="));
    const q = qp ? Number(qp.slice(2)) : 1;
    return [{ type, q: Number.isFinite(q) && q >= 0 && q <= 1 ? q : 1 }];
  });
}

/**
 * The Content-Type of a GraphQL answer for an Accept header: graphql-response+json when the client
 * ranks it above application/json (on a tie, when it names it explicitly and first), else JSON.
 */
export function graphqlContentType(accept: string | null): string {
  if (accept === null || !accept.toLowerCase().includes(GRAPHQL_RESPONSE)) return JSON_TYPE;
  const list = parseAccept(accept);
  const mine = qOf(list, GRAPHQL_RESPONSE);
  const json = qOf(list, JSON_TYPE);
  if (mine === 0) return JSON_TYPE;
  if (mine !== json) return mine > json ? GRAPHQL_RESPONSE : JSON_TYPE;
  const first = list.findIndex((a) => a.type === GRAPHQL_RESPONSE);
  const jsonAt = list.findIndex((a) => a.type === JSON_TYPE);
  return jsonAt === -1 || first < jsonAt ? GRAPHQL_RESPONSE : JSON_TYPE;
}
