// Site pages seen in Svc-Page (with Svc-Path and Svc-Schema) on entry reads: aggregated in
// memory and written in batches, never on the response path.
import { eq } from "drizzle-orm";
import { pageReads } from "../../storage/project/schema.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { write } from "../unit-of-work.ts";

const MAX_ITEMS = 100;

/** A header value worth recording: 1-256 printable ASCII characters; anything else is dropped. */
export function storable(v: string | null): string | null {
  if (v === null || v.length < 1 || v.length > 256 || !/^[\x20-\x7e]+$/.test(v)) return null;
  return v;
}

interface Pending {
  paths: Set<string>;
  schemas: Set<string>;
  models: Set<string>;
  entries: Set<string>;
  queries: Set<string>;
  lastSeenAt: string;
}

export class PageRecorder {
  /** projectId -> page -> what was seen since the last flush. */
  private pending = new Map<string, Map<string, Pending>>();
  /** `services` is called only after construction (the services hold this object). */
  constructor(private readonly services: () => Services) {}

  private get s(): Services {
    return this.services();
  }

  /**
   * Notes a read answered to a request that names its page in Svc-Page (with Svc-Path and
   * Svc-Schema); requests without a storable page are not recorded. `answer` names the model
   * namespaces and entry ids the answer holds.
   */
  recordRead(
    projectId: string,
    headers: Headers,
    answer: { readonly models: readonly string[]; readonly entryIds: readonly string[] },
    queries: string[],
  ): void {
    const page = storable(headers.get("svc-page"));
    if (!page) return;
    const { models, entryIds: entries } = answer;
    const path = storable(headers.get("svc-path"));
    const schema = storable(headers.get("svc-schema"));
    for (const q of queries) this.record(projectId, page, path, schema, models, entries, q);
  }

  /** Notes a read for a page; cheap (a few set inserts). */
  record(
    projectId: string,
    page: string,
    path: string | null,
    schema: string | null,
    models: readonly string[],
    entries: readonly string[],
    query: string,
  ): void {
    let byPage = this.pending.get(projectId);
    if (!byPage) {
      byPage = new Map();
      this.pending.set(projectId, byPage);
    }
    let p = byPage.get(page);
    if (!p) {
      p = { paths: new Set(), schemas: new Set(), models: new Set(), entries: new Set(), queries: new Set(), lastSeenAt: "" };
      byPage.set(page, p);
    }
    if (path) p.paths.add(path);
    if (schema) p.schemas.add(schema);
    for (const m of models) p.models.add(m);
    for (const e of entries.slice(0, MAX_ITEMS)) p.entries.add(e);
    p.queries.add(query.slice(0, 512));
    p.lastSeenAt = iso(this.s.clock.now());
  }

  /** Merges what was seen into each project's page_reads table, one transaction per project. */
  flush(): void {
    const pending = this.pending;
    this.pending = new Map();
    for (const [projectId, byPage] of pending) {
      if (!this.s.projects.exists(projectId)) continue;
      const h = this.s.projects.get(projectId);
      write(this.s, h, () => {
        for (const [page, p] of byPage) {
          const cur = h.db.select().from(pageReads).where(eq(pageReads.page, page)).get();
          const merge = (old: string | undefined, add: Set<string>) =>
            JSON.stringify([...new Set([...(old ? JSON.parse(old) : []), ...add])].slice(-MAX_ITEMS));
          const row = {
            page,
            paths: merge(cur?.paths, p.paths),
            schemas: merge(cur?.schemas, p.schemas),
            models: merge(cur?.models, p.models),
            entries: merge(cur?.entries, p.entries),
            queries: merge(cur?.queries, p.queries),
            lastSeenAt: p.lastSeenAt,
          };
          h.db.insert(pageReads).values(row).onConflictDoUpdate({ target: pageReads.page, set: row }).run();
        }
      });
    }
  }
}

function pageOut(r: typeof pageReads.$inferSelect) {
  return {
    page: r.page,
    paths: JSON.parse(r.paths),
    schemas: JSON.parse(r.schemas),
    models: JSON.parse(r.models),
    entries: JSON.parse(r.entries),
    queries: JSON.parse(r.queries),
    lastSeenAt: r.lastSeenAt,
  };
}

export function listPages(h: ProjectHandle) {
  return h.db.select().from(pageReads).orderBy(pageReads.page).all().map(pageOut);
}

export function getPage(h: ProjectHandle, page: string) {
  const r = h.db.select().from(pageReads).where(eq(pageReads.page, page)).get();
  return r ? pageOut(r) : null;
}
