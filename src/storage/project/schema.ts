// A project file (data/projects/<projectId>.sqlite): everything of one project. Entries keep
// their current draft and their published copy side by side in one row, so a read of either
// visibility is one indexed scan with no join; every saved draft is also a row in entry_versions.
import { sqliteTable, text, integer, real, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";

export const models = sqliteTable(
  "models",
  {
    id: text("id").primaryKey(),
    namespace: text("namespace").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    singleEntry: integer("single_entry", { mode: "boolean" }).notNull().default(false),
    /** JSON list of field definitions (id, namespace, label, type, arrayType, relation, required, options). */
    fields: text("fields").notNull().default("[]"),
    /** JSON entry layout, or null for the plain editor. */
    layout: text("layout"),
    embedByDefault: integer("embed_by_default", { mode: "boolean" }).notNull().default(false),
    /** The site URL that previews an entry, with {token}, {id}, {model} and {<field>} placeholders, or null. */
    previewUrl: text("preview_url"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("models_namespace").on(t.namespace)],
);

export const entries = sqliteTable(
  "entries",
  {
    id: text("id").primaryKey(),
    modelId: text("model_id").notNull(),
    createdAt: text("created_at").notNull(),
    /** The entry's own last-save time (what a development key sees). */
    updatedAt: text("updated_at").notNull(),
    draftVersionId: text("draft_version_id").notNull(),
    draftVersion: integer("draft_version").notNull(),
    draftData: text("draft_data").notNull(),
    draftTags: text("draft_tags").notNull().default("[]"),
    draftFolder: text("draft_folder"),
    publishedVersionId: text("published_version_id"),
    publishedVersion: integer("published_version"),
    publishedData: text("published_data"),
    publishedTags: text("published_tags"),
    publishedFolder: text("published_folder"),
    publishedAt: text("published_at"),
    /** When the published version was saved (what a production key sees as updatedAt). */
    publishedUpdatedAt: text("published_updated_at"),
    /**
     * Normalised comparison values by field id, for kinds whose stored form does not compare
     * correctly as is: dates (and lists of dates) as UTC instants with six fractional digits.
     */
    draftKeys: text("draft_keys").notNull().default("{}"),
    publishedKeys: text("published_keys"),
    /**
     * When the entry was moved to the trash (docs/editing.md), or null. A trashed row stays here,
     * versions and all, so a restore brings it back as it was and field changes still convert it;
     * every read and list leaves it out (reads/names.ts `visible`, entries/service.ts `getRow`).
     */
    deletedAt: text("deleted_at"),
    /** Who moved it there: `user:<id>` or `api_key:<id>`. */
    deletedBy: text("deleted_by"),
    /**
     * Each locale's state (decisions.md 13; docs/localization.md), for an entry of a model with a
     * localized field; null for any other entry (it is the same in every locale). JSON
     * `{ <code>: { status, publishedAt, draft } }` in the project's locale order, one key per locale
     * whose draft holds a localized value or that is published: `status` draft, published or
     * changed (the locale's view of the draft against that of the published copy), `publishedAt`
     * that locale's own (null when unpublished), `draft` whether the draft holds a value in it.
     * Written with every save, publish and unpublish (locales/state.ts), so reads, filters and
     * production visibility read it without comparing copies.
     */
    localeState: text("locale_state"),
  },
  (t) => [
    // The trash is small beside the entries: its list and the purge job read this partial index.
    index("entries_trash").on(t.deletedAt, t.id).where(sql`deleted_at IS NOT NULL`),
    index("entries_model_created").on(t.modelId, t.createdAt, t.id),
    index("entries_model_updated").on(t.modelId, t.updatedAt, t.id),
    // Production reads see published copies only; these partial indexes serve their system sorts.
    index("entries_pub_created").on(t.modelId, t.createdAt, t.id).where(sql`published_version_id IS NOT NULL`),
    index("entries_pub_updated").on(t.modelId, t.publishedUpdatedAt, t.id).where(sql`published_version_id IS NOT NULL`),
    index("entries_pub_published").on(t.modelId, t.publishedAt, t.id).where(sql`published_version_id IS NOT NULL`),
    index("entries_model_published").on(t.modelId, t.publishedAt, t.id),
  ],
);

export const entryVersions = sqliteTable(
  "entry_versions",
  {
    id: text("id").primaryKey(),
    entryId: text("entry_id").notNull(),
    number: integer("number").notNull(),
    data: text("data").notNull(),
    tags: text("tags").notNull().default("[]"),
    folder: text("folder"),
    createdAt: text("created_at").notNull(),
    /** `user:<id>`, `api_key:<id>`, `schedule` or `system`. */
    createdBy: text("created_by"),
    /**
     * Saved by `PATCH ...?autosave=true`: the next autosave of the same person within 30 minutes
     * replaces this version in place instead of adding one (docs/editing.md).
     */
    autosave: integer("autosave", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    uniqueIndex("entry_versions_entry_number").on(t.entryId, t.number),
    // A person's recent work (GET /v2/home): their versions, newest first.
    index("entry_versions_by").on(t.createdBy, t.createdAt),
  ],
);

export const modelVersions = sqliteTable(
  "model_versions",
  {
    modelId: text("model_id").notNull(),
    version: integer("version").notNull(),
    snapshot: text("snapshot").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.version] })],
);

/** Key/value settings of the project (publishing time zone, model-set version, ...). */
export const settings = sqliteTable("settings", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

/** Preview tokens (stored hashed): which drafts a production key may see with ?preview=. */
export const previewTokens = sqliteTable(
  "preview_tokens",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    /** JSON list of entry ids, or null. */
    entryIds: text("entry_ids"),
    modelId: text("model_id"),
    expiresAt: text("expires_at").notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by"),
  },
  (t) => [uniqueIndex("preview_tokens_hash").on(t.tokenHash)],
);

/** Site pages seen in Svc-Page headers, aggregated; written in batches off the request path. */
export const pageReads = sqliteTable("page_reads", {
  page: text("page").primaryKey(),
  /** JSON lists, each capped. */
  paths: text("paths").notNull().default("[]"),
  schemas: text("schemas").notNull().default("[]"),
  models: text("models").notNull().default("[]"),
  entries: text("entries").notNull().default("[]"),
  queries: text("queries").notNull().default("[]"),
  lastSeenAt: text("last_seen_at").notNull(),
});

/**
 * The event outbox: every event is written in the same transaction as the change that causes
 * it. `body` holds the envelope's exact JSON (fixed key order) without content; `content` holds
 * the published entry for endpoints that ask for content data.
 */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    /** Insertion order, so deliveries keep the order in which events occurred. */
    seq: integer("seq").notNull(),
    type: text("type").notNull(),
    occurredAt: text("occurred_at").notNull(),
    body: text("body").notNull(),
    content: text("content"),
  },
  (t) => [uniqueIndex("events_seq").on(t.seq)],
);

/**
 * Scheduled publish and unpublish actions, one row per target. `run_at` is the resolved UTC
 * instant of `wall_time` in `timezone`; the runner claims due rows by flipping `pending` to
 * `running` with a fresh `claim_token`, and only the holder of that token may finish the row.
 */
export const scheduledActions = sqliteTable(
  "scheduled_actions",
  {
    id: text("id").primaryKey(),
    batchId: text("batch_id").notNull(),
    /** `publish` or `unpublish`. */
    action: text("action").notNull(),
    /** `instance` or `model`. */
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    versionId: text("version_id"),
    wallTime: text("wall_time").notNull(),
    timezone: text("timezone").notNull(),
    runAt: text("run_at").notNull(),
    offset: text("offset").notNull(),
    note: text("note"),
    /** pending, running, done, failed, dead, cancelled. */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** When a failed action is retried automatically; null once it will not be. */
    nextAttemptAt: text("next_attempt_at"),
    claimedAt: text("claimed_at"),
    claimToken: text("claim_token"),
    lastError: text("last_error"),
    /** JSON list of the rules the target broke when the last run failed validation (`{ entryId, field, rule, message }`), or null. */
    lastErrors: text("last_errors"),
    lastFailedAt: text("last_failed_at"),
    /** JSON list of the ids this action cancelled when it was scheduled. */
    replaced: text("replaced").notNull().default("[]"),
    /** JSON list of the locale codes it publishes or unpublishes, or null for the default (decisions.md 13). */
    locales: text("locales"),
    replacedBy: text("replaced_by"),
    retryOf: text("retry_of"),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
    updatedAt: text("updated_at").notNull(),
    finishedAt: text("finished_at"),
  },
  (t) => [
    index("scheduled_actions_status_run").on(t.status, t.runAt),
    index("scheduled_actions_target").on(t.targetId, t.action, t.status),
    index("scheduled_actions_batch").on(t.batchId),
    index("scheduled_actions_retry_of").on(t.retryOf),
  ],
);

/** A bulk publish or unpublish above the in-request limit, worked through in chunks in the background. */
export const bulkBatches = sqliteTable("bulk_batches", {
  id: text("id").primaryKey(),
  /** `publish` or `unpublish`. */
  action: text("action").notNull(),
  /** queued, running, done. */
  status: text("status").notNull(),
  total: integer("total").notNull(),
  /** JSON description of the selection (ids or model and filter), for the poll answer. */
  selection: text("selection").notNull(),
  /** JSON list of the locale codes each entry publishes or unpublishes, or null for the default (decisions.md 13). */
  locales: text("locales"),
  createdAt: text("created_at").notNull(),
  createdBy: text("created_by").notNull(),
  startedAt: text("started_at"),
  finishedAt: text("finished_at"),
});

/**
 * One row per entry of a bulk batch. `result` is written in the same transaction as the publish
 * or unpublish it records, so a batch resumed after a crash never does an entry twice.
 */
export const bulkBatchItems = sqliteTable(
  "bulk_batch_items",
  {
    batchId: text("batch_id").notNull(),
    position: integer("position").notNull(),
    entryId: text("entry_id").notNull(),
    /** null until done; then done, skipped or failed. */
    result: text("result"),
    error: text("error"),
    /** JSON list of the rules the entry broke when its publish failed validation (`{ field, rule, message }`), or null. */
    errors: text("errors"),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.position] })],
);

/** Answers stored for an Idempotency-Key, per caller, for 24 hours. */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    /** `user:<id>` or `api_key:<id>`: a key is the caller's own. */
    principal: text("principal").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the method, path and canonical body. */
    requestHash: text("request_hash").notNull(),
    status: integer("status").notNull(),
    body: text("body").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.principal, t.key] }), index("idempotency_keys_expires").on(t.expiresAt)],
);

/**
 * Webhook endpoints. The secret is kept in full because it signs every attempt; after creation
 * only its first characters are shown. During a rotation's overlap the previous secret signs too.
 */
export const webhookEndpoints = sqliteTable("webhook_endpoints", {
  id: text("id").primaryKey(),
  url: text("url").notNull(),
  description: text("description"),
  /** JSON list of subscribed event types. */
  events: text("events").notNull(),
  includeContent: integer("include_content", { mode: "boolean" }).notNull().default(false),
  active: integer("active", { mode: "boolean" }).notNull().default(true),
  secret: text("secret").notNull(),
  previousSecret: text("previous_secret"),
  previousSecretExpiresAt: text("previous_secret_expires_at"),
  secretRotatedAt: text("secret_rotated_at"),
  /** Start of the current unbroken run of failed attempts; null after a success. */
  failingSince: text("failing_since"),
  disabledAt: text("disabled_at"),
  /** Why the service switched the endpoint off (`failing`); null when a person did or it is on. */
  disabledReason: text("disabled_reason"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  createdBy: text("created_by"),
});

/**
 * One delivery of one event to one endpoint. `seq` (the rowid) is the order of occurrence the
 * sender keeps per endpoint. Every attempt sends and signs the same bytes: `body` when the
 * delivery's bytes differ from the event's (an endpoint with 'Include content data'), else null
 * and the event's own `body`, which never changes.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    seq: integer("seq").primaryKey(),
    id: text("id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    body: text("body"),
    /** pending, sending, succeeded, retrying, failed. */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: text("next_attempt_at"),
    /** The delivery this one sends again, for a redelivery. */
    redeliveryOf: text("redelivery_of"),
    /** Why a delivery ended without a final attempt (its endpoint was switched off). */
    note: text("note"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    finishedAt: text("finished_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_id").on(t.id),
    // Only open deliveries, in the order they fall due; a publish's rows for several endpoints land
    // side by side at the end of it. No index leads with the endpoint: it would scatter each
    // publish's outbox writes over one page per endpoint (measured: about 6% of publish throughput).
    index("webhook_deliveries_due").on(t.nextAttemptAt, t.seq, t.endpointId).where(sql`status IN ('pending', 'retrying')`),
  ],
);

/** Every attempt of a delivery: answer status, duration and the first 4 KB of the answer. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    deliveryId: text("delivery_id").notNull(),
    number: integer("number").notNull(),
    startedAt: text("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    statusCode: integer("status_code"),
    succeeded: integer("succeeded", { mode: "boolean" }).notNull(),
    error: text("error"),
    response: text("response"),
    /** The headers Capa sent (JSON object; the signature masked), and the answer's (JSON object), or null. */
    requestHeaders: text("request_headers"),
    responseHeaders: text("response_headers"),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.number] })],
);

/**
 * Workspaces: arrangements of the admin's left rail. The arrangement is one JSON tree per
 * workspace (`tree`: nodes `{ id, type, name?, icon?, ref?, children? }`), read and written
 * whole, because every operation on it (replace, merge, move, group) works on the whole tree and
 * a rail holds at most a few thousand nodes. Arranging never touches models or entries.
 */
export const workspaces = sqliteTable(
  "workspaces",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    icon: text("icon"),
    /** `team` (everyone in the project) or `private` (its creator only). */
    visibility: text("visibility").notNull(),
    /** The template it was created from: blank, website or catalog. */
    template: text("template").notNull().default("blank"),
    tree: text("tree").notNull().default("[]"),
    /** `user:<id>` or `api_key:<id>`. */
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("workspaces_created").on(t.createdAt, t.id)],
);

/**
 * Per caller (`user:<id>` or `api_key:<id>`): the workspace chosen as current, and the one an
 * owner or admin assigned. The project's default workspace is the `workspace.default` setting.
 */
export const workspacePrefs = sqliteTable(
  "workspace_prefs",
  {
    principal: text("principal").primaryKey(),
    currentWorkspaceId: text("current_workspace_id"),
    assignedWorkspaceId: text("assigned_workspace_id"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("workspace_prefs_assigned").on(t.assignedWorkspaceId)],
);

/**
 * Field changes: a model edit that changes a field's type, array type, relation or namespace
 * on a model with entries. `plan` holds the diff, its ops and the decisions (JSON); converted
 * values are staged in field_change_rows and field_change_versions, then moved into the entries
 * and the model in one transaction. State: planned, queued, converting, moving, done, failed,
 * cancelled.
 */
export const fieldChanges = sqliteTable(
  "field_changes",
  {
    id: text("id").primaryKey(),
    modelId: text("model_id").notNull(),
    state: text("state").notNull(),
    planHash: text("plan_hash").notNull(),
    /** The model version the change applies to, and the version it produced. */
    baseVersion: integer("base_version").notNull(),
    resultVersion: integer("result_version"),
    plan: text("plan").notNull(),
    /** JSON counts per op (planned changes with more than 1,000 entries are counted in the background). */
    counts: text("counts"),
    /** Where staging (or counting) has reached: the last entry's `created_at` and id. */
    cursorCreatedAt: text("cursor_created_at"),
    cursorId: text("cursor_id"),
    total: integer("total").notNull().default(0),
    done: integer("done").notNull().default(0),
    /** JSON `{ code, message }` of a failed change. */
    error: text("error"),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
  },
  (t) => [index("field_changes_model").on(t.modelId, t.createdAt), index("field_changes_state").on(t.state)],
);

/** One entry's converted draft and published copies, staged until the change moves. */
export const fieldChangeRows = sqliteTable(
  "field_change_rows",
  {
    changeId: text("change_id").notNull(),
    entryId: text("entry_id").notNull(),
    /** The copies the conversion read; a newer save or publish makes the staged row stale. */
    draftVersionId: text("draft_version_id").notNull(),
    publishedVersionId: text("published_version_id"),
    draftData: text("draft_data").notNull(),
    draftKeys: text("draft_keys").notNull(),
    publishedData: text("published_data"),
    publishedKeys: text("published_keys"),
    /** The entry's locale state under the new fields (entries.locale_state). */
    localeState: text("locale_state"),
  },
  (t) => [primaryKey({ columns: [t.changeId, t.entryId] })],
);

/** Converted data of entry versions whose stored data changes, staged until the change moves. */
export const fieldChangeVersions = sqliteTable(
  "field_change_versions",
  {
    changeId: text("change_id").notNull(),
    versionId: text("version_id").notNull(),
    entryId: text("entry_id").notNull(),
    data: text("data").notNull(),
  },
  (t) => [primaryKey({ columns: [t.changeId, t.versionId] }), index("field_change_versions_entry").on(t.changeId, t.entryId)],
);

/** Values that failed to convert: listed, never lost silently. */
export const fieldChangeFailures = sqliteTable(
  "field_change_failures",
  {
    changeId: text("change_id").notNull(),
    entryId: text("entry_id").notNull(),
    fieldId: text("field_id").notNull(),
    /** `draft` or `published`. */
    copy: text("copy").notNull(),
    /** The value as it was stored (JSON). */
    value: text("value").notNull(),
    reason: text("reason").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.changeId, t.entryId, t.fieldId, t.copy] })],
);

/**
 * Automatic persisted queries (decisions.md section 5): GraphQL documents by the SHA-256 of their
 * text, registered by clients that send the text with its hash once.
 */
export const graphqlPersistedQueries = sqliteTable(
  "graphql_persisted_queries",
  {
    hash: text("hash").primaryKey(),
    query: text("query").notNull(),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at").notNull(),
  },
  (t) => [index("graphql_persisted_queries_used").on(t.lastUsedAt)],
);

/**
 * The media library (decisions.md section 10): one row per file. The bytes live in the media
 * store under `storage_key`; `seq` orders the list newest first (keyset cursor) even when two
 * uploads share a timestamp. `folder_id` names a media_folders row or is null (the root).
 */
export const media = sqliteTable(
  "media",
  {
    id: text("id").primaryKey(),
    seq: integer("seq").notNull(),
    filename: text("filename").notNull(),
    kind: text("kind").notNull(),
    mimeType: text("mime_type").notNull(),
    size: integer("size").notNull(),
    width: integer("width"),
    height: integer("height"),
    duration: real("duration"),
    alt: text("alt").notNull().default(""),
    title: text("title").notNull().default(""),
    folderId: text("folder_id"),
    /** JSON `{ x, y }` in 0-1, or null for the centre. */
    focalPoint: text("focal_point"),
    checksum: text("checksum").notNull(),
    placeholder: text("placeholder"),
    storageKey: text("storage_key").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** `user:<id>` or `api_key:<id>`. */
    createdBy: text("created_by"),
    /**
     * How many times the file's bytes were replaced (PUT /v2/media/:id/file): a replaced file keeps
     * its id and gets a new URL (`<id>_<revision>` in the path), so the immutable old URL never
     * shows the new bytes.
     */
    revision: integer("revision").notNull().default(0),
  },
  (t) => [
    uniqueIndex("media_seq").on(t.seq),
    index("media_folder_seq").on(t.folderId, t.seq),
    index("media_kind_seq").on(t.kind, t.seq),
    // An upload whose bytes the library holds already is found by its SHA-256.
    index("media_checksum").on(t.checksum),
  ],
);

/** Media folders: a tree by `parent_id` (null at the root); a file's folder is one of these. */
export const mediaFolders = sqliteTable(
  "media_folders",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    parentId: text("parent_id"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("media_folders_parent").on(t.parentId)],
);

/**
 * Backups of media files (decisions.md section 10): with CAPA_REPLICA_URL set, each uploaded
 * file's row here is written in the upload's transaction, and the media-backup job copies its
 * bytes to the replica, retrying with backoff until done. A row is the durable promise that the
 * file will reach the replica even if the server stops right after the upload.
 */
export const mediaBackups = sqliteTable(
  "media_backups",
  {
    mediaId: text("media_id").primaryKey(),
    storageKey: text("storage_key").notNull(),
    /** `pending` until the replica holds the bytes, then `done`. */
    state: text("state").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: text("next_attempt_at").notNull(),
    lastError: text("last_error"),
    createdAt: text("created_at").notNull(),
    doneAt: text("done_at"),
  },
  (t) => [index("media_backups_due").on(t.nextAttemptAt).where(sql`state = 'pending'`)],
);

/**
 * The edge purge outbox (decisions.md 14; src/domain/edge/outbox.ts): one row per purge target
 * for each change whose answers an edge cache must drop, written in that change's transaction.
 * The purger sends its tags and deletes it; a failed call moves `next_attempt_at` on.
 */
export const edgePurges = sqliteTable(
  "edge_purges",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    /** The target's name (`varnish:<url>`, `fastly:<id>`, `cloudflare:<zone>`), from CAPA_EDGE_PURGE. */
    target: text("target").notNull(),
    /** JSON list of tags. */
    tags: text("tags").notNull(),
    createdAt: text("created_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: text("next_attempt_at").notNull(),
    lastError: text("last_error"),
  },
  (t) => [index("edge_purges_due").on(t.target, t.nextAttemptAt)],
);

/**
 * Saved views of an entry list (decisions.md 15): columns, sort, where and search, kept by name per
 * model. `where_json` and `sort` are the /api grammar as saved; a field removed since is dropped
 * when the view opens (domain/views/fit.ts), never rewritten here. A shared view is seen by
 * every member; the others by their creator only.
 */
export const savedViews = sqliteTable(
  "saved_views",
  {
    id: text("id").primaryKey(),
    modelId: text("model_id").notNull(),
    name: text("name").notNull(),
    shared: integer("shared", { mode: "boolean" }).notNull().default(false),
    /** JSON list of column keys (a field's namespace, or a $system column). */
    columns: text("columns").notNull(),
    sort: text("sort"),
    whereJson: text("where_json"),
    search: text("search"),
    /** `user:<id>`. */
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("saved_views_model").on(t.modelId, t.createdAt)],
);
