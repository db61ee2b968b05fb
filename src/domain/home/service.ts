// The home screen's one request (issue 27, home): the projects a person can open and, for the
// project they are in, the entries they touched last, the scheduled actions coming up, the
// deliveries that failed (for roles that see webhooks) and, for a new project, which of the three
// first steps are done (a model, an entry, a key). Each part is read as the person's role allows.
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { isOperator } from "../access/operator.ts";
import { holds, type Principal } from "../access/principal.ts";
import { titleOf } from "../entries/publish.ts";
import { statusOf } from "../entries/status.ts";
import { allModels } from "../models/catalog.ts";
import { getProject, listProjects } from "../projects/service.ts";

/** Items of each list on the home screen. */
export const HOME_ITEMS = 10;
/** Versions read to find the person's recent entries (a person saving one entry many times still finds ten). */
const RECENT_SCAN = 500;

interface EntryRow {
  id: string;
  modelId: string;
  data: string;
  updatedAt: string;
  pv: string | null;
  pn: number | null;
  dn: number;
}

function entryFacts(
  h: ProjectHandle,
  ids: string[],
): Map<string, { model: string; modelName: string; title: string | null; status: string; updatedAt: string }> {
  if (ids.length === 0) return new Map();
  const models = allModels(h).byId;
  const rows = h.sqlite
    .query(
      `SELECT id, model_id AS modelId, draft_data AS data, updated_at AS updatedAt, published_version_id AS pv, published_version AS pn, draft_version AS dn
       FROM entries WHERE deleted_at IS NULL AND id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(ids)) as EntryRow[];
  const out = new Map<string, { model: string; modelName: string; title: string | null; status: string; updatedAt: string }>();
  for (const r of rows) {
    const m = models.get(r.modelId);
    if (!m) continue;
    out.set(r.id, {
      model: m.namespace,
      modelName: m.name,
      title: titleOf(m, JSON.parse(r.data), allModels(h).locales.default),
      status: statusOf({ publishedVersionId: r.pv, publishedVersion: r.pn, draftVersion: r.dn }),
      updatedAt: r.updatedAt,
    });
  }
  return out;
}

/** The entries the person saved last (not in the trash), each once, by when they last saved it. */
function recentEntries(h: ProjectHandle, userId: string) {
  const versions = h.sqlite
    .query(`SELECT entry_id AS id, created_at AS at FROM entry_versions WHERE created_by = ? ORDER BY created_at DESC LIMIT ${RECENT_SCAN}`)
    .all(`user:${userId}`) as { id: string; at: string }[];
  const last = new Map<string, string>();
  for (const v of versions) if (!last.has(v.id)) last.set(v.id, v.at);
  const facts = entryFacts(h, [...last.keys()]);
  return [...last]
    .filter(([id]) => facts.has(id))
    .slice(0, HOME_ITEMS)
    .map(([id, at]) => ({ id, ...facts.get(id)!, editedAt: at }));
}

/** Pending scheduled actions, soonest first, with their target's title. */
function upcoming(h: ProjectHandle) {
  const rows = h.sqlite
    .query(
      `SELECT id, action, target_type AS type, target_id AS targetId, run_at AS at, batch_id AS batchId FROM scheduled_actions
       WHERE status = 'pending' ORDER BY run_at, id LIMIT ${HOME_ITEMS}`,
    )
    .all() as { id: string; action: string; type: string; targetId: string; at: string; batchId: string }[];
  const facts = entryFacts(
    h,
    rows.filter((r) => r.type === "instance").map((r) => r.targetId),
  );
  const models = allModels(h).byId;
  return rows.map((r) => {
    const f = r.type === "instance" ? facts.get(r.targetId) : undefined;
    const m = r.type === "model" ? models.get(r.targetId) : undefined;
    return {
      id: r.id,
      action: r.action,
      runAt: r.at,
      batchId: r.batchId,
      target: { type: r.type, id: r.targetId, model: f?.model ?? m?.namespace ?? null, title: f?.title ?? m?.name ?? null },
    };
  });
}

/** Deliveries that failed and were not sent again since, newest first, and how many there are. */
function failedDeliveries(h: ProjectHandle) {
  const open = "status = 'failed' AND NOT EXISTS (SELECT 1 FROM webhook_deliveries r WHERE r.redelivery_of = d.id)";
  const total = (h.sqlite.query(`SELECT count(*) AS n FROM webhook_deliveries d WHERE ${open}`).get() as { n: number }).n;
  const rows = h.sqlite
    .query(
      `SELECT d.id, d.endpoint_id AS endpointId, w.url, d.event_id AS eventId, d.event_type AS eventType, d.attempts, d.finished_at AS failedAt, d.note,
         (SELECT a.status_code FROM webhook_attempts a WHERE a.delivery_id = d.id ORDER BY a.number DESC LIMIT 1) AS lastStatus
       FROM webhook_deliveries d LEFT JOIN webhook_endpoints w ON w.id = d.endpoint_id
       WHERE ${open} ORDER BY d.seq DESC LIMIT ${HOME_ITEMS}`,
    )
    .all() as Record<string, unknown>[];
  return { total, data: rows };
}

/** Which of a new project's first steps are done. */
function firstSteps(s: Services, h: ProjectHandle) {
  const model = allModels(h).list.length > 0;
  const entry = h.sqlite.query("SELECT 1 FROM entries LIMIT 1").get() !== null;
  const key = s.control.sqlite.query("SELECT 1 FROM api_keys WHERE project_id = ? LIMIT 1").get(h.id) !== null;
  return { model, entry, key, done: model && entry && key };
}

/** `GET /v2/home`. */
export function home(s: Services, p: Extract<Principal, { kind: "user" }>) {
  const projects = listProjects(s, p.userId);
  const canCreateProjects = s.config.projectCreators === "anyone" || isOperator(s, p.userId);
  const row = p.projectId ? getProject(s, p.projectId) : undefined;
  if (!row || !p.role) return { projects, canCreateProjects, project: null, recentEntries: [], scheduled: [], failedDeliveries: null, firstSteps: null };
  const h = s.projects.hold(row.id);
  try {
    return {
      projects,
      canCreateProjects,
      project: { id: row.id, name: row.name, slug: row.slug, role: p.role },
      recentEntries: holds(p, "instance:read") ? recentEntries(h, p.userId) : [],
      scheduled: holds(p, "instance:read") ? upcoming(h) : [],
      failedDeliveries: holds(p, "webhook:read") ? failedDeliveries(h) : null,
      firstSteps: firstSteps(s, h),
    };
  } finally {
    s.projects.release(h);
  }
}
