// An index made on demand (reads/indexes.ts) gets its statistics at once. Without them, in a
// project file whose other indexes have statistics, the planner took the fresh partial index of a
// field for the most selective one and served every read of the model by it: the first page in
// the default order (newest first, served by the created_at index) became a sort of all the
// model's rows once any list or read had sorted by a field (190 ms instead of 0.3 ms at 100,000
// entries). The plan of that page must stay a walk of the created_at index.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startApp, type Harness } from "../harness.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { createProject } from "../../src/domain/projects/service.ts";
import { createModel } from "../../src/domain/models/service.ts";
import type { Model } from "../../src/domain/models/catalog.ts";
import type { ProjectHandle } from "../../src/storage/pool.ts";
import { ensureIndex } from "../../src/domain/reads/indexes.ts";
import { DRAFTS, fieldExpr } from "../../src/domain/reads/names.ts";

let h: Harness;
let ph: ProjectHandle;
let post: Model;

beforeAll(() => {
  h = startApp();
  const s = h.capa.services;
  const owner = createUser(s, { email: "stats@example.com", password: "stats-password-1" });
  ph = s.projects.get(createProject(s, { name: "Stats", ownerId: owner.id }).id);
  post = createModel(s, ph, { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] });
  const title = post.fields[0]!.id;
  const insert =
    ph.sqlite.prepare(`INSERT INTO entries (id, model_id, created_at, updated_at, draft_version_id, draft_version, draft_data, draft_tags, draft_keys)
    VALUES (?, ?, ?, ?, ?, 1, ?, '[]', '{}')`);
  ph.sqlite.transaction(() => {
    for (let i = 0; i < 3000; i++) {
      const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
      insert.run(crypto.randomUUID(), post.id, at, at, crypto.randomUUID(), JSON.stringify({ [title]: `T ${(i * 7919) % 3000}` }));
    }
  })();
  // A file that has been analysed (a bench seed, or PRAGMA optimize over time) has statistics for its indexes.
  ph.sqlite.exec("ANALYZE");
});
afterAll(() => h.close());

const planOfFirstPage = () =>
  (
    ph.sqlite
      .query(
        `EXPLAIN QUERY PLAN SELECT e.id FROM entries e WHERE e.model_id = '${post.id}' AND e.deleted_at IS NULL ORDER BY e.created_at DESC, e.id DESC LIMIT 26`,
      )
      .all() as { detail: string }[]
  ).map((r) => r.detail);

test("the first page in the default order walks the created_at index, before and after a field's index is made", () => {
  expect(planOfFirstPage()).toEqual(["SEARCH e USING INDEX entries_model_created (model_id=?)"]);
  ensureIndex(ph, DRAFTS, post, fieldExpr(DRAFTS, "e", post.fields[0]!, null));
  const made = ph.sqlite.query("SELECT name FROM sqlite_master WHERE name LIKE 'cx_d_%'").all() as { name: string }[];
  expect(made.length).toBe(1);
  expect(ph.sqlite.query("SELECT stat FROM sqlite_stat1 WHERE idx = ?").get(made[0]!.name)).toEqual({ stat: "3000 3000 1 1" });
  expect(planOfFirstPage()).toEqual(["SEARCH e USING INDEX entries_model_created (model_id=?)"]);
});

test("a file whose statistics were deleted (the empty sqlite_stat1 left) gets none for a new index either", () => {
  const s = h.capa.services;
  const owner = createUser(s, { email: "nostats@example.com", password: "stats-password-1" });
  const other = s.projects.get(createProject(s, { name: "No stats", ownerId: owner.id }).id);
  const page = createModel(s, other, { name: "Page", namespace: "page", fields: [{ namespace: "title", type: "string" }] });
  other.sqlite.exec("ANALYZE; DELETE FROM sqlite_stat1; ANALYZE sqlite_schema");
  ensureIndex(other, DRAFTS, page, fieldExpr(DRAFTS, "e", page.fields[0]!, null));
  const made = other.sqlite.query("SELECT name FROM sqlite_master WHERE name LIKE 'cx_d_%'").all() as { name: string }[];
  expect(made.length).toBe(1);
  // Statistics for the one new index alone would make the planner misjudge every other index.
  expect(other.sqlite.query("SELECT count(*) AS n FROM sqlite_stat1").get()).toEqual({ n: 0 });
});
