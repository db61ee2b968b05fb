// The management list's deep pages cost what page 1 costs (issue 27, lists): sorted by a field, a
// page read by cursor is one range search on the field's expression index (EXPLAIN QUERY PLAN
// shows `(model_id=? AND <expr><?)` or `>?`), never a walk over the earlier entries or a sort in
// a temporary B-tree. The time it takes is measured in `bench lists` (docs/performance.md).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type Harness } from "../harness.ts";
import { planOf, type Recorded, recording } from "../sql-plans.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { createProject } from "../../src/domain/projects/service.ts";
import { createModel } from "../../src/domain/models/service.ts";
import { createEntry } from "../../src/domain/entries/service.ts";
import { listEntries } from "../../src/domain/entries/list.ts";
import type { ProjectHandle } from "../../src/storage/pool.ts";

let h: Harness;
let ph: ProjectHandle;
let fieldIds: Record<string, string>;
const ENTRIES = 300;

beforeAll(() => {
  h = startApp();
  const s = h.capa.services;
  const owner = createUser(s, { email: "plan@example.com", password: "plan-password-1" });
  ph = s.projects.get(createProject(s, { name: "Plan", ownerId: owner.id }).id);
  const m = createModel(s, ph, {
    name: "Item",
    namespace: "item",
    fields: [
      { namespace: "title", type: "string" },
      { namespace: "price", type: "number" },
    ],
  });
  fieldIds = Object.fromEntries(m.fields.map((f) => [f.namespace, f.id]));
  for (let i = 0; i < ENTRIES; i++) {
    const data: Record<string, unknown> = { title: `T${String((i * 37) % 100).padStart(3, "0")}` };
    if (i % 9) data.price = (i * 7) % 23;
    createEntry(s, ph, `user:${owner.id}`, { model: m.id, data });
  }
});
afterAll(() => h.close());

/** The plan of a recorded statement of this project. */
const plan = (q: Recorded) => planOf(ph, q);

describe("a field-sorted page by cursor is a range search on the field's index", () => {
  for (const [sort, field, cmp] of [
    ["title", "title", ">"],
    ["-price", "price", "<"],
  ] as const) {
    test(`sort=${sort}`, () => {
      const s = h.capa.services;
      // Page 7 of 25: its cursor comes from walking the pages before it.
      let after: string | undefined;
      for (let p = 1; p < 7; p++) after = (listEntries(s, ph, { model: "item", sort, limit: "25", after }) as { next: string }).next;
      const { handle, log } = recording(ph);
      const page = listEntries(s, handle, { model: "item", sort, limit: "25", after });
      expect(page.data).toHaveLength(25);
      // The entries that share the cursor's value (an exact seek on the value, then on id) and,
      // when they leave room, those beyond it (a range on the value): each one index search.
      const statements = log.filter((q) => q.sql.includes(" ORDER BY "));
      expect(statements.length).toBeGreaterThanOrEqual(1);
      let m: RegExpExecArray | null = null;
      for (const [i, statement] of statements.entries()) {
        const steps = plan(statement);
        expect(steps).toHaveLength(1);
        const shape = i === 0 && statements.length > 1 ? `<expr>=\\? AND id${cmp}\\?` : `<expr>${cmp}\\?`;
        m = new RegExp(`^SEARCH e USING INDEX (cx_d_\\w+) \\(model_id=\\? AND ${shape}\\)$`).exec(steps[0]!);
        expect([steps[0], m !== null]).toEqual([steps[0], true]);
      }
      // The index the search uses holds exactly the field's expression after model_id.
      const made = (ph.sqlite.query("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").get(m![1]!) as { sql: string }).sql;
      expect(made).toContain(`(model_id, json_extract(draft_data, '$."${fieldIds[field]}"'), id)`);
    });
  }
});
