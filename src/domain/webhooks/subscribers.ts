// Who listens in a project: its active endpoints, cached on the open project handle because the
// outbox subscriber asks on every event, and dropped after every endpoint write; and which
// projects have endpoints at all, so the sender opens only those files.
import { eq } from "drizzle-orm";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { webhookEndpoints } from "../../storage/project/schema.ts";
import { webhookProjects } from "../../storage/control/schema.ts";

const CACHE_KEY = "webhooks:active-endpoints";

/** An active endpoint as the outbox listener needs it. */
export interface Subscriber {
  id: string;
  events: ReadonlySet<string>;
  includeContent: boolean;
}

/** The project's active endpoints, cached on the open handle until an endpoint changes. */
export function activeSubscribers(h: ProjectHandle): Subscriber[] {
  let list = h.cache.get(CACHE_KEY) as Subscriber[] | undefined;
  if (!list) {
    list = h.db
      .select({ id: webhookEndpoints.id, events: webhookEndpoints.events, includeContent: webhookEndpoints.includeContent })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.active, true))
      .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id)
      .all()
      .map((r) => ({ id: r.id, events: new Set(JSON.parse(r.events) as string[]), includeContent: r.includeContent }));
    h.cache.set(CACHE_KEY, list);
  }
  return list;
}

/** Forgets the cached endpoint list; called after every endpoint write. */
export function endpointsChanged(h: ProjectHandle): void {
  h.cache.delete(CACHE_KEY);
}

/** The projects that have endpoints; markers of deleted projects are dropped on the way. */
export function webhookProjectIds(s: Services): string[] {
  const rows = s.control.sqlite.query("SELECT w.project_id AS id, p.id AS live FROM webhook_projects w LEFT JOIN projects p ON p.id = w.project_id").all() as {
    id: string;
    live: string | null;
  }[];
  const gone = rows.filter((r) => r.live === null);
  for (const r of gone) s.control.db.delete(webhookProjects).where(eq(webhookProjects.projectId, r.id)).run();
  return rows.filter((r) => r.live !== null).map((r) => r.id);
}
