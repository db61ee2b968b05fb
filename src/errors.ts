// The error catalogue: every error a client can see is a code here. The /api envelope, the /v2
// body, GraphQL extensions and the /docs/errors pages are all rendered from this one table.

export interface CatalogueEntry {
  status: number;
  /** The /api envelope's `type`; stable per status. */
  type: string;
  /** The default one-sentence message. */
  message: string;
  /** What to do next; shown on the docs page and, unless overridden, in the envelope. */
  hint?: string;
  /** On /v2 the body is exactly `{ error }` (plus extras) with no `code`, as interface.md spells it. */
  bare?: boolean;
}

const T = {
  400: "invalid_request",
  401: "authentication",
  402: "payment",
  403: "permission",
  404: "not_found",
  405: "method",
  409: "conflict",
  413: "invalid_request",
  416: "invalid_request",
  429: "rate_limited",
  500: "api_error",
  503: "api_error",
  504: "",
} as const;

function e(status: keyof typeof T, message: string, hint?: string, bare?: boolean): CatalogueEntry {
  return { status, type: T[status], message, hint, bare };
}

export const CATALOGUE = {
  // Read API (/api) codes of interface.md.
  invalid_version: e(400, "That is not a supported API version.", "Send Svc-Version as one of the supported dates: 2026-10-01."),
  missing_key: e(401, "No API key was sent.", "Send your key in the x-api-key header."),
  invalid_key: e(401, "The API key is not valid.", "Check the key in the admin under API keys; revoked and expired keys stop working at once."),
  subscription_required: e(402, "This project has no active subscription.", "Ask the project owner to reactivate the subscription."),
  origin_refused: e(
    403,
    "This key does not accept requests from that origin.",
    "Add the origin to the key's allowed origins, or call from the server without an Origin header.",
  ),
  scope_missing: e(403, "This key lacks the scope the route needs.", "Mint a key that holds instance:read."),
  edge_only: e(403, "Requests must come through the CDN.", "Call the API through its public host, not the origin server."),
  contract_not_found: e(404, "That contract does not exist.", "This project has contract 1 only; send Svc-Contract: 1 or leave the header out."),
  route_not_found: e(404, "No route matches this path.", "Check the path against the API reference."),
  model_not_found: e(404, "No model with that namespace exists.", "List your models with GET /api/me; namespaces are case-sensitive."),
  entry_not_found: e(404, "No entry with that id can be read with this key.", "Production keys read published entries only."),
  mutations_not_enabled: e(405, "Writes are not enabled on the read API.", "Use the management API on /v2 to change content."),
  rate_limit_exceeded: e(429, "Too many requests at once for this key.", "Wait and retry; keep at most 3 reads in flight per client."),
  internal: e(500, "Something went wrong on our side.", "Retry; if it persists, quote meta.requestId to support."),
  service_unavailable: e(503, "The API is busy; retry shortly.", "Retry after the number of seconds in the Retry-After header."),
  query_timeout: e(504, "The entry read took too long and was stopped.", "Narrow the filter or lower the limit."),
  // The eight query-grammar codes of the entries routes.
  invalid_parameter: e(400, "A query parameter is not valid.", "Check the parameter against the entries grammar, e.g. ?limit=25&sort=-createdAt."),
  invalid_select: e(400, "The select parameter is not valid.", 'Example: select=title,author(name),"odd,name"'),
  unknown_field: e(400, "The model has no field of that name.", "Example: select=title; system keys take a $: $createdAt."),
  invalid_where: e(400, "The where parameter is not valid JSON filter syntax.", 'Example: where={"title":{"contains":"news"}}'),
  invalid_filter_value: e(400, "A filter value does not fit its operator or field.", 'Example: where={"price":{"gte":10}}'),
  invalid_sort: e(400, "The sort parameter is not valid.", "Example: sort=-publishedAt,title (up to 3 keys)."),
  invalid_limit: e(400, "The limit must be a whole number from 1 to 200.", "Example: limit=25"),
  invalid_cursor: e(400, "The cursor is not valid.", "Pass meta.page.next or meta.page.prev exactly as returned."),
  // Localization (decisions.md 13; docs/localization.md).
  invalid_locale: e(
    400,
    "That is not a locale of this project.",
    "Send a BCP 47 code the project has (GET /v2/locales lists them), e.g. locale=de; fallbackLocale takes a comma list or none.",
  ),
  // GraphQL codes.
  graphql_validation_failed: e(400, "The GraphQL document is not valid.", "Name every operation and pick one with operationName."),
  query_too_costly: e(400, "The query could return more entries than the budget allows.", "Lower first/last on connections."),
  query_too_deep: e(400, "The query nests more selection levels than allowed.", "Flatten the query to at most 12 levels."),
  query_too_large: e(400, "The request is larger than allowed.", "Shorten the document or use a persisted query."),
  persisted_query_not_found: e(400, "PersistedQueryNotFound", "Send the query text along with its hash once."),
  too_many_root_fields: e(
    400,
    "The query has more entry root fields than allowed.",
    "Split the document: at most 10 entry root fields (lists, single entries, entry, node, nodes) per request.",
  ),
  // Management (/v2) codes.
  auth_required: e(401, "Authentication token required", undefined, true),
  invalid_credentials: e(401, "Invalid credentials", undefined, true),
  sign_in_throttled: e(
    429,
    "Too many sign-in attempts; wait before trying again.",
    "Wait the number of seconds in the Retry-After header; each further failure doubles the wait, up to 15 minutes.",
  ),
  invalid_api_key: e(401, "Invalid API key", undefined, true),
  // A 400, not a 401: the caller is signed in; only the password they typed to confirm is wrong.
  wrong_password: e(
    400,
    "The current password is not right.",
    "Type the password you sign in with now; forgot it? Ask the server's operator (capa user password).",
  ),
  invalid_token: e(401, "Invalid or expired token", "Sign in again or refresh the access token."),
  insufficient_permissions: e(403, "Insufficient permissions", undefined, true),
  not_a_member: e(403, "You are not a member of this project", undefined, true),
  invalid_project_header: e(400, "x-svc-project must be a project id", undefined, true),
  no_project: e(400, "No project is chosen: send x-svc-project or open a project first.", "PUT /v2/projects/current { projectId }"),
  slug_taken: e(409, "That URL is taken", undefined, true),
  invalid_body: e(400, "The request body is not valid.", "Check the named field."),
  invalid_json: e(400, "The request body is not valid JSON.", "Send a JSON object with Content-Type: application/json."),
  payload_too_large: e(413, "The request body is larger than 1 MB.", "Send a smaller body."),
  not_found: e(404, "Not found.", undefined),
  conflict: e(409, "The request conflicts with the current state.", undefined),
  namespace_taken: e(409, "A model with that namespace already exists.", "Choose another namespace."),
  webhook_url_refused: e(
    400,
    "The webhook URL points at a private, loopback or link-local address.",
    "Use a public https URL; a server on a private network can allow such targets with CAPA_WEBHOOK_ALLOW_PRIVATE=1.",
  ),
  webhook_inactive: e(409, "The webhook endpoint is switched off.", "Switch it on with PATCH /v2/webhooks/:id { active: true } first."),
  delivery_in_progress: e(
    409,
    "The delivery is being sent right now, or waits for its first attempt.",
    "It is about to be sent: wait for its attempt to end (at most 10 seconds), then redeliver it if it failed.",
  ),
  confirmation_mismatch: e(400, "The confirmation does not match.", "Type the exact value to confirm."),
  csrf_header_missing: e(
    403,
    "A request authenticated by the session cookie must carry the x-capa-csrf: 1 header.",
    "Send x-capa-csrf: 1 with requests the session cookie authenticates (the admin app does).",
  ),
  version_conflict: e(
    409,
    "The entry has changed since the version you edited.",
    "Read the entry again (its latest version is in `current`), merge your changes, and send them with the new If-Match.",
  ),
  mail_not_configured: e(
    400,
    "This server sends no mail: its operator has not set CAPA_SMTP_URL and CAPA_MAIL_FROM.",
    "Leave send out and pass the invitation link on yourself; a forgotten password is set by the server's operator (capa user password).",
  ),
  reset_throttled: e(
    429,
    "Too many password reset requests from this network address; wait before asking again.",
    "Wait the number of seconds in the Retry-After header; each network address may ask 20 times an hour.",
  ),
  invitation_not_found: e(
    404,
    "The invitation is not valid: it was never made, was used, withdrawn, or has expired.",
    "Ask the project's owner or an admin for a new invitation.",
  ),
  invitation_accepted: e(409, "The invitation was accepted already.", "The person is a member: change their role under People if needed."),
  invitation_for_another_account: e(
    403,
    "The invitation is for another e-mail address than the account signed in.",
    "Sign in as the invited account (or sign out to accept as a new account), then accept.",
  ),
  field_change_required: e(
    409,
    "Changing a field's type, array type, relation or namespace on a model with entries needs a field change.",
    "POST /v2/models/:id/field-changes/plan",
  ),
  in_the_past: e(400, "The scheduled time is less than 60 seconds ahead.", "Pick a time at least a minute ahead."),
  already_running: e(409, "The action is running and cannot be cancelled.", undefined),
  nothing_selected: e(400, "The selection holds no entries.", "Widen the where, q or status, or name entries by instanceIds."),
  selection_changed: e(409, "The selection no longer matches expectedCount.", "Run a dryRun again and send the new count."),
  plan_stale: e(409, "The model changed since the plan was made.", "Make a new plan."),
  feature_disabled: e(404, "Field changes are switched off on this server.", undefined),
  invalid_layout: e(400, "The entry layout is not valid.", "Fix the part of the layout named in path."),
  field_change_in_progress: e(409, "Another field change of this model is in progress.", "Wait for it to finish, or cancel it first."),
  field_change_not_cancellable: e(
    409,
    "This field change can no longer be cancelled.",
    "A change can be cancelled until the model starts moving to its new shape.",
  ),
  field_change_not_resumable: e(409, "Only a failed or cancelled field change can be resumed.", undefined),
  idempotency_key_reused: e(409, "That Idempotency-Key was used with another body.", "Use a new key for a new request."),
  action_not_pending: e(409, "Only pending scheduled actions can be rescheduled.", "Cancel it and schedule a new action, or retry a failed one."),
  action_not_cancellable: e(409, "Only pending, failed or dead scheduled actions can be cancelled.", undefined),
  action_not_retryable: e(409, "Only failed or dead scheduled actions can be retried.", undefined),
  already_rotated: e(409, "This key was rotated already; rotate its successor instead."),
  scope_not_held: e(403, "Cannot grant a scope you do not hold", undefined),
  invalid_scope: e(400, "That scope is not one a key can hold.", "Scopes look like instance:read or instance:read:<modelId>."),
  // Media library (decisions.md section 10): uploads, probing, the public file URL and its transforms.
  file_too_large: e(413, "The file is larger than the upload limit.", "Send a smaller file; the server's limit is CAPA_MEDIA_MAX_BYTES (default 100 MiB)."),
  upload_not_multipart: e(
    400,
    "Uploads must be sent as multipart/form-data.",
    "Send one or more parts named file, plus optional alt, title and folder fields.",
  ),
  upload_truncated: e(400, "The multipart body ended before it was complete.", "Retry the upload; the body was cut short on the way."),
  file_required: e(400, "The upload has no file part.", "Add at least one part named file."),
  file_empty: e(400, "A file part is empty.", "Send files of at least one byte."),
  invalid_filename: e(
    400,
    "A file name is not allowed.",
    "Send a plain name of at most 255 bytes without slashes, backslashes, control characters or a leading dot.",
  ),
  image_too_large: e(
    400,
    "The image declares more pixels than allowed, or decoding it would take more memory than one decode may use.",
    "Scale the image down before uploading. The limits are CAPA_MEDIA_MAX_PIXELS and, for formats decoded whole (GIF, AVIF, animated WebP, progressive JPEG, interlaced PNG, TIFF), half of CAPA_MEDIA_DECODE_BUDGET; `limit` is the most pixels such a file may have on this server.",
  ),
  image_too_complex: e(
    400,
    "The SVG would draw more than the server allows.",
    "Flatten repeated <use> references or simplify paths, or export the drawing as PNG or WebP. The limits: 50,000 elements and 1,000,000 path points once references are followed, 4 megapixels of embedded raster images, no XML entities.",
  ),
  image_unreadable: e(400, "The file is marked as an image but cannot be decoded.", "Export the image again from its editor and upload the new file."),
  invalid_transform: e(
    400,
    "An image transform parameter is not valid.",
    "Example: ?w=800&fm=auto (w and h 1-4096, fit cover|contain|inside|outside|fill, fm jpg|png|webp|avif|auto, q 1-100, dpr 1-3).",
  ),
  transform_rate_limited: e(
    429,
    "Too many new image variants from this client.",
    "Retry after the seconds in Retry-After; variants made already are never limited.",
  ),
  duplicate_file: e(
    409,
    "The library holds a file with the same bytes already.",
    "Use the file in `existing`, or upload again with ?duplicate=true to keep a second copy.",
  ),
  file_kind_in_use: e(
    409,
    "The file is used by image fields, so it can only be replaced by an image.",
    "Replace it with an image, or remove it from the entries listed in `entries` first.",
  ),
  media_in_use: e(409, "The file is used by entries.", "Remove it from the entries listed in `entries`, or delete with ?force=true."),
  folder_not_empty: e(409, "The folder holds files or folders.", "Move or delete what it holds first."),
  // Editing rules and the trash (decisions.md 15; docs/editing.md).
  not_unique: e(
    409,
    "Another entry of this model already holds that value in a field that must be unique.",
    "Choose another value; `entryId` names the entry that holds it and `field` the field.",
  ),
  validation_failed: e(
    400,
    "The entry breaks rules of its model's fields, so it was not published.",
    "Fix every field listed in `errors` (each names the field and the rule), save, and publish again.",
  ),
  locale_in_use: e(
    409,
    "Entries hold values in a locale the change removes.",
    "The answer counts the entries and values of each locale; move or delete them first, or send the change again with ?force=true to drop them.",
  ),
  entry_in_trash: e(404, "The entry is in the trash.", "Restore it with POST /v2/trash/:id/restore, or find it with GET /v2/trash."),
  range_not_satisfiable: e(416, "The requested byte range is outside the file.", "Ask for a range within the size in the Content-Range header."),
} satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof CATALOGUE;

/** Extra options of an AppError: a message or hint of its own, the parameter at fault, body extras. */
export interface AppErrorOptions {
  message?: string;
  hint?: string;
  param?: string;
  /** Extra keys of the /v2 body (`field`, `required`, `current`, `path`, ...). */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** An error a client may see; everything else is an internal error with no detail. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param?: string;
  readonly hint?: string;
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  constructor(code: ErrorCode, opts: AppErrorOptions = {}) {
    const entry: CatalogueEntry = CATALOGUE[code];
    super(opts.message ?? entry.message);
    this.code = code;
    this.status = entry.status;
    this.param = opts.param;
    this.hint = opts.hint ?? entry.hint;
    this.extra = opts.extra;
    this.headers = opts.headers;
  }
}

/** Shorthand for throwing a catalogue error. */
export function fail(code: ErrorCode, opts?: AppErrorOptions): never {
  throw new AppError(code, opts);
}

/** A body validation error naming the field at fault. */
export function badField(field: string, message: string): never {
  throw new AppError("invalid_body", { message, param: field, extra: { field } });
}

/** The /v2 body: `{ error, code, ...extra }`, or `{ error, ...extra }` for the bare sentences. */
export function v2Body(err: AppError): Record<string, unknown> {
  const entry: CatalogueEntry = CATALOGUE[err.code];
  const body: Record<string, unknown> = { error: err.message };
  if (!entry.bare) body.code = err.code;
  if (err.extra) Object.assign(body, err.extra);
  return body;
}

/** The docs URL of a code. */
export function docsUrl(base: string, code: string): string {
  return `${base}/docs/errors/${code}`;
}

/** The /api envelope's `error` object, in the key order of interface.md. */
export function apiErrorObject(err: AppError, docsBase: string): Record<string, unknown> {
  const entry: CatalogueEntry = CATALOGUE[err.code];
  const o: Record<string, unknown> = { type: entry.type, code: err.code, message: err.message };
  if (err.param !== undefined) o.param = err.param;
  if (err.hint !== undefined) o.hint = err.hint;
  o.docs = docsUrl(docsBase, err.code);
  return o;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** One small HTML page per code, generated from the catalogue. */
export function docsPage(code: string): string | null {
  if (!Object.hasOwn(CATALOGUE, code)) return null;
  const entry = (CATALOGUE as Record<string, CatalogueEntry>)[code]!;
  const rows = [
    ["Status", String(entry.status)],
    ["Type", entry.type || "(none)"],
    ["Meaning", entry.message],
    ["What to do", entry.hint ?? "Read the message; it names what to change."],
  ];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Capa error ${escapeHtml(code)}</title></head><body><h1>${escapeHtml(code)}</h1><dl>${rows
    .map(([k, v]) => `<dt>${escapeHtml(k!)}</dt><dd>${escapeHtml(v!)}</dd>`)
    .join("")}</dl></body></html>`;
}
