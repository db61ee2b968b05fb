// Per-request facts kept beside the request object: set before routing, so that error answers
// (rendered by the guard's error handler) carry the same request id, version and keyed headers as
// successes. One store per app, held by the services.

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
  /** The route pattern that answered under the management routes (for the request log line). */
  route?: string;
  /** The caller's address, noted when the root hands the request to the management routes. */
  client?: string;
}

/** The request facts of one app, by request. */
export class RequestInfos {
  private readonly infos = new WeakMap<Request, RequestInfo>();
  constructor(private readonly newId: () => string) {}

  /** The info of a request, created on first use. */
  of(request: Request): RequestInfo {
    let i = this.infos.get(request);
    if (!i) {
      i = { id: `req_${this.newId()}`, start: performance.now(), url: new URL(request.url), headers: {} };
      this.infos.set(request, i);
    }
    return i;
  }

  /** The caller's address the root noted for a management request (src/app.ts); "local" otherwise. */
  client(request: Request): string {
    return this.infos.get(request)?.client ?? "local";
  }

  /** Records the key and project a request acts for, for the request log line. */
  annotate(request: Request, ids: { keyId?: string | null; projectId?: string | null }): void {
    const i = this.infos.get(request);
    if (!i) return;
    if (ids.keyId) i.keyId = ids.keyId;
    if (ids.projectId) i.projectId = ids.projectId;
  }
}

/** The caller's address as the server saw it ("local" for in-process requests). */
export function clientIp(server: { requestIP(r: Request): { address: string } | null } | null | undefined, request: Request): string {
  return server?.requestIP(request)?.address ?? "local";
}
