// Per-request facts kept beside the request object: set before routing, so that error answers
// (rendered in app.ts) carry the same request id, version and keyed headers as successes.

export interface RequestInfo {
  id: string;
  start: number;
  /** The parsed URL, parsed once. */
  url: URL;
  /** The version served (for /api), once resolved. */
  version?: string;
  /** Headers every answer to this request carries, errors included (Svc-Key-Id, Vary, ...). */
  headers: Record<string, string>;
  /** Key and project ids for the request log line. */
  keyId?: string;
  projectId?: string;
  /** The status of an error answer, noted when it is rendered (for the request log line). */
  status?: number;
}

const infos = new WeakMap<Request, RequestInfo>();

/** The info of a request, created on first use. */
export function requestInfo(request: Request, newId: () => string): RequestInfo {
  let i = infos.get(request);
  if (!i) {
    i = { id: `req_${newId()}`, start: performance.now(), url: new URL(request.url), headers: {} };
    infos.set(request, i);
  }
  return i;
}

/** Records the key and project a request acts for, for the request log line. */
export function annotate(request: Request, ids: { keyId?: string | null; projectId?: string | null }): void {
  const i = infos.get(request);
  if (!i) return;
  if (ids.keyId) i.keyId = ids.keyId;
  if (ids.projectId) i.projectId = ids.projectId;
}
