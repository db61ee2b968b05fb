// Local HTTP servers standing in for the purge APIs, each checking every request exactly as its
// documentation describes it and answering as it does; anything else is a 4xx the purger logs
// and the test sees in `refused`.
// - Fastly, "purge multiple surrogate key tags" (developer.fastly.com/reference/api/purging/):
//   POST /service/{service_id}/purge, Fastly-Key, Accept and Content-Type application/json, body
//   { "surrogate_keys": [...] } with up to 256 keys; 200 answers { key: purgeId } per key. Over
//   the rate limit: 429 with Fastly-RateLimit-Reset (epoch seconds).
// - Cloudflare, "purge cached content by tag" (developers.cloudflare.com/api, zones purge_cache;
//   cache/how-to/purge-cache "Purge limits"): POST /client/v4/zones/{zone_id}/purge_cache,
//   Authorization: Bearer <token>, Content-Type application/json, body { "tags": [...] } with at
//   most 100 operations; 200 answers { success: true, errors: [], messages: [], result: { id } }.
//   Over the limit: 429 with Retry-After (seconds).
// - Varnish with capa.vcl: PURGE with Authorization: Bearer <token> and xkey-purge.
// Each server can be told to answer 500, 429 or nothing at all (hang) for its next calls.

/** One request the server accepted. */
export interface Seen {
  at: number;
  tags: string[];
}

export type Mode = "ok" | "500" | "429" | "hang";

export interface VendorServer {
  /** The base URL (Fastly/Cloudflare API base, or the Varnish purge URL). */
  url: string;
  /** Accepted calls, in order. */
  calls: Seen[];
  /** Requests refused for their shape (method, path, headers, body), with why. */
  refused: string[];
  /** Every request, accepted or not (a hang included). */
  requests: number;
  /** The mode of the next requests; `times` of them, then "ok". */
  set(mode: Mode, times?: number, retryAfterSeconds?: number): void;
  /** Answers every hanging request (with a 500). */
  release(): void;
  /** Back to "ok", with nothing seen (between tests). */
  reset(): void;
  stop(): void;
}

type Check = (req: Request, body: string) => { tags: string[] } | { refuse: Response; why: string };

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

function serve(check: Check, answer: (tags: string[]) => Response, limited: (seconds: number) => Response): VendorServer {
  let mode: Mode = "ok";
  let left = 0;
  let retryAfter = 30;
  const hanging: (() => void)[] = [];
  const state: Pick<VendorServer, "calls" | "refused" | "requests"> = { calls: [], refused: [], requests: 0 };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      state.requests++;
      const body = await req.text();
      const checked = check(req, body);
      if ("refuse" in checked) {
        state.refused.push(checked.why);
        return checked.refuse;
      }
      const now = mode;
      if (left > 0 && --left === 0) mode = "ok";
      if (now === "hang") return new Promise<Response>((resolve) => hanging.push(() => resolve(new Response("released", { status: 500 }))));
      if (now === "500") return new Response("upstream failure", { status: 500 });
      if (now === "429") return limited(retryAfter);
      state.calls.push({ at: performance.now(), tags: checked.tags });
      return answer(checked.tags);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    get calls() {
      return state.calls;
    },
    get refused() {
      return state.refused;
    },
    get requests() {
      return state.requests;
    },
    set(m, times = Number.POSITIVE_INFINITY, seconds = 30) {
      mode = m;
      left = times;
      retryAfter = seconds;
    },
    release() {
      for (const r of hanging.splice(0)) r();
    },
    reset() {
      for (const r of hanging.splice(0)) r();
      mode = "ok";
      left = 0;
      state.calls = [];
      state.refused = [];
      state.requests = 0;
    },
    stop() {
      for (const r of hanging.splice(0)) r();
      server.stop(true);
    },
  };
}

/** A string list of 1 to `max` distinct non-empty strings, or why not. */
function tagList(v: unknown, max: number): string[] | string {
  if (!Array.isArray(v) || v.length === 0) return "not a non-empty list";
  if (v.length > max) return `${v.length} tags, more than ${max}`;
  if (!v.every((t) => typeof t === "string" && t.length > 0 && t.length <= 1024 && /^[\x21-\x7e]+$/.test(t))) return "a tag that is not printable ASCII";
  if (new Set(v).size !== v.length) return "a tag twice";
  return v as string[];
}

/** Fastly's purge API for service `serviceId`, keyed with `token`. */
export function fastlyApi(serviceId: string, token: string): VendorServer {
  return serve(
    (req, body) => {
      const refuse = (status: number, why: string) => ({ refuse: json(status, { msg: why }), why });
      const url = new URL(req.url);
      if (req.method !== "POST" || url.pathname !== `/service/${serviceId}/purge` || url.search !== "")
        return refuse(404, `${req.method} ${url.pathname}${url.search}`);
      if (req.headers.get("fastly-key") !== token) return refuse(401, "Provided credentials are missing or invalid");
      if (req.headers.get("accept") !== "application/json") return refuse(406, `Accept ${req.headers.get("accept")}`);
      if (req.headers.get("content-type") !== "application/json") return refuse(415, `Content-Type ${req.headers.get("content-type")}`);
      if (req.headers.has("fastly-soft-purge")) return refuse(400, "a soft purge");
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return refuse(400, "body is not JSON");
      }
      if (typeof parsed !== "object" || parsed === null || Object.keys(parsed).join() !== "surrogate_keys")
        return refuse(400, `body keys ${Object.keys(parsed ?? {})}`);
      const tags = tagList((parsed as { surrogate_keys: unknown }).surrogate_keys, 256);
      return typeof tags === "string" ? refuse(400, tags) : { tags };
    },
    (tags) => json(200, Object.fromEntries(tags.map((t, i) => [t, `108-1391560174-${i}`]))),
    (seconds) =>
      json(429, { msg: "Too many requests" }, { "fastly-ratelimit-remaining": "0", "fastly-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + seconds) }),
  );
}

/** Cloudflare's purge API for zone `zoneId`, with API token `token`. */
export function cloudflareApi(zoneId: string, token: string): VendorServer {
  const failure = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
    json(status, { success: false, errors: [{ code, message }], messages: [], result: null }, headers);
  return serve(
    (req, body) => {
      const url = new URL(req.url);
      if (req.method !== "POST" || url.pathname !== `/client/v4/zones/${zoneId}/purge_cache` || url.search !== "")
        return { refuse: failure(404, 7003, "Could not route to the path"), why: `${req.method} ${url.pathname}${url.search}` };
      if (req.headers.get("authorization") !== `Bearer ${token}`) return { refuse: failure(403, 10000, "Authentication error"), why: "Authentication error" };
      if (req.headers.get("content-type") !== "application/json") return { refuse: failure(415, 6003, "Invalid request headers"), why: "Content-Type" };
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return { refuse: failure(400, 6007, "Malformed JSON in request body"), why: "body is not JSON" };
      }
      if (typeof parsed !== "object" || parsed === null || Object.keys(parsed).join() !== "tags")
        return { refuse: failure(400, 1012, "Request must contain one of files, tags, hosts, prefixes or purge_everything"), why: "body keys" };
      const tags = tagList((parsed as { tags: unknown }).tags, 100);
      return typeof tags === "string" ? { refuse: failure(400, 1069, "Too many operations"), why: tags } : { tags };
    },
    () => json(200, { success: true, errors: [], messages: [], result: { id: "023e105f4ecef8ad9ca31a8372d0c353" } }),
    (seconds) => failure(429, 10013, "Rate limited. Please wait and consider throttling your request speed", { "retry-after": String(seconds) }),
  );
}

/** A purge endpoint that answers as deploy/varnish/capa.vcl does. */
export function varnishPurge(token: string): VendorServer {
  return serve(
    (req) => {
      if (req.method !== "PURGE") return { refuse: new Response("Method", { status: 405 }), why: req.method };
      if (req.headers.get("authorization") !== `Bearer ${token}`) return { refuse: new Response("Unauthorized", { status: 401 }), why: "Unauthorized" };
      const tags = (req.headers.get("xkey-purge") ?? "").split(" ").filter(Boolean);
      if (tags.length === 0) return { refuse: new Response("No xkey-purge header", { status: 400 }), why: "no tags" };
      return { tags };
    },
    (tags) => new Response(`Purged ${tags.length}`, { status: 200 }),
    (seconds) => new Response("Busy", { status: 503, headers: { "retry-after": String(seconds) } }),
  );
}
