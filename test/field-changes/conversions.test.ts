// Each conversion of decisions.md section 7, applied end to end: plan counts, the change run by
// the job, and the values read back through GET /api/entries with a development key.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { readEntries, scopedKey } from "../agent-keys.ts";
import { change, entry, model, planAndApply, run } from "./helpers.ts";

let h: Harness;
let token: string;
let dev: string;
let ann: any;
let otherEntry: any;

const MEDIA = { id: "m1", url: "https://cdn.example.com/a.png", alt: "A", type: "image", width: 10, height: 20 };

beforeAll(async () => {
  h = startApp();
  ({ token } = await withOwner(h));
  dev = await scopedKey(h, token, ["instance:read"], "development");
  await model(h, token, "author", [{ namespace: "name", type: "string" }]);
  await model(h, token, "other", [{ namespace: "name", type: "string" }]);
  ann = await entry(h, token, "author", { name: "Ann" });
  otherEntry = await entry(h, token, "other", { name: "Not an author" });
});
afterAll(() => h.close());

interface Kind {
  name: string;
  from: Record<string, unknown>;
  to: Record<string, unknown>;
  values: () => unknown[];
  counts: { values: number; convert: number; loseDetail: number; fail: number };
  after: () => unknown[];
  /** The namespace values read under afterwards (default v). */
  readAs?: string;
}

const kinds: Kind[] = [
  {
    name: "text to number parses",
    from: { type: "string" },
    to: { type: "number" },
    values: () => ["12.5", " 7 ", "-3e2", "abc", ""],
    counts: { values: 5, convert: 3, loseDetail: 0, fail: 2 },
    after: () => [12.5, 7, -300, null, null],
  },
  {
    name: "text to true_false parses",
    from: { type: "string" },
    to: { type: "true_false" },
    values: () => ["yes", "FALSE", "1", "off", "maybe"],
    counts: { values: 5, convert: 4, loseDetail: 0, fail: 1 },
    after: () => [true, false, true, false, null],
  },
  {
    name: "text to date parses",
    from: { type: "markdown" },
    to: { type: "date" },
    values: () => ["2026-01-02", "2026-01-02T10:00:00Z", " 2026-02-03 ", "2026-13-01", "soon"],
    counts: { values: 5, convert: 3, loseDetail: 0, fail: 2 },
    after: () => ["2026-01-02", "2026-01-02T10:00:00Z", "2026-02-03", null, null],
  },
  {
    name: "number to text always converts",
    from: { type: "number" },
    to: { type: "string" },
    values: () => [3, 4.5, -1],
    counts: { values: 3, convert: 3, loseDetail: 0, fail: 0 },
    after: () => ["3", "4.5", "-1"],
  },
  {
    name: "true_false to text always converts",
    from: { type: "true_false" },
    to: { type: "code" },
    values: () => [true, false],
    counts: { values: 2, convert: 2, loseDetail: 0, fail: 0 },
    after: () => ["true", "false"],
  },
  {
    name: "date to text always converts",
    from: { type: "date" },
    to: { type: "string" },
    values: () => ["2026-03-04", "2026-03-05T10:00:00Z"],
    counts: { values: 2, convert: 2, loseDetail: 0, fail: 0 },
    after: () => ["2026-03-04", "2026-03-05T10:00:00Z"],
  },
  {
    name: "number to true_false: 1 and 0",
    from: { type: "number" },
    to: { type: "true_false" },
    values: () => [1, 0, 2],
    counts: { values: 3, convert: 2, loseDetail: 0, fail: 1 },
    after: () => [true, false, null],
  },
  {
    name: "true_false to number: 1 and 0",
    from: { type: "true_false" },
    to: { type: "number" },
    values: () => [true, false],
    counts: { values: 2, convert: 2, loseDetail: 0, fail: 0 },
    after: () => [1, 0],
  },
  {
    name: "scalar to array wraps",
    from: { type: "string" },
    to: { type: "array", arrayType: "string" },
    values: () => ["a", "b"],
    counts: { values: 2, convert: 2, loseDetail: 0, fail: 0 },
    after: () => [["a"], ["b"]],
  },
  {
    name: "scalar to array of another kind wraps and converts",
    from: { type: "number" },
    to: { type: "array", arrayType: "string" },
    values: () => [1],
    counts: { values: 1, convert: 1, loseDetail: 0, fail: 0 },
    after: () => [["1"]],
  },
  {
    name: "array to scalar keeps the first item, losing detail when there were more",
    from: { type: "array", arrayType: "number" },
    to: { type: "number" },
    values: () => [[1, 2, 3], [5], []],
    counts: { values: 2, convert: 1, loseDetail: 1, fail: 0 },
    after: () => [1, 5, null],
  },
  {
    name: "array to array converts every item or fails whole",
    from: { type: "array", arrayType: "string" },
    to: { type: "array", arrayType: "number" },
    values: () => [
      ["1", "2"],
      ["1", "x"],
    ],
    counts: { values: 2, convert: 1, loseDetail: 0, fail: 1 },
    after: () => [[1, 2], null],
  },
  {
    name: "text to enum keeps the allowed values",
    from: { type: "string" },
    to: { type: "enum", options: { values: ["s", "m"] } },
    values: () => ["s", "xl"],
    counts: { values: 2, convert: 1, loseDetail: 0, fail: 1 },
    after: () => ["s", null],
  },
  {
    name: "text to markdown",
    from: { type: "string" },
    to: { type: "markdown" },
    values: () => ["# x"],
    counts: { values: 1, convert: 1, loseDetail: 0, fail: 0 },
    after: () => ["# x"],
  },
  {
    name: "relation to text gives the id",
    from: { type: "relation", relation: "author" },
    to: { type: "string" },
    values: () => [ann.id],
    counts: { values: 1, convert: 1, loseDetail: 0, fail: 0 },
    after: () => [ann.id],
  },
  {
    name: "text to relation keeps ids of the related model",
    from: { type: "string" },
    to: { type: "relation", relation: "author" },
    values: () => [ann.id, "not-an-id", otherEntry.id],
    counts: { values: 3, convert: 1, loseDetail: 0, fail: 2 },
    after: () => [ann.id, null, null],
  },
  {
    name: "relation to a list of the same relation wraps",
    from: { type: "relation", relation: "author" },
    to: { type: "array", arrayType: "relation", relation: "author" },
    values: () => [ann.id],
    counts: { values: 1, convert: 1, loseDetail: 0, fail: 0 },
    after: () => [[ann.id]],
  },
  {
    name: "media to media carries the object",
    from: { type: "image" },
    to: { type: "file" },
    values: () => [MEDIA],
    counts: { values: 1, convert: 1, loseDetail: 0, fail: 0 },
    after: () => [MEDIA],
  },
  {
    name: "mixed to number",
    from: { type: "mixed" },
    to: { type: "number" },
    values: () => [5, "6", { a: 1 }],
    counts: { values: 3, convert: 2, loseDetail: 0, fail: 1 },
    after: () => [5, 6, null],
  },
  {
    name: "a namespace change renames",
    from: { type: "string" },
    to: { namespace: "w" },
    values: () => ["kept", "also"],
    counts: { values: 2, convert: 2, loseDetail: 0, fail: 0 },
    after: () => ["kept", "also"],
    readAs: "w",
  },
];

describe.each(kinds.map((k, i) => [k.name, k, i] as const))("%s", (_name, k, i) => {
  const ns = `k${i}`;
  let m: any;
  let ids: string[] = [];
  let plan: any;
  let ch: any;

  beforeAll(async () => {
    m = await model(h, token, ns, [
      { namespace: "v", ...k.from },
      { namespace: "n", type: "number" },
    ]);
    ids = [];
    for (const [j, v] of k.values().entries()) ids.push((await entry(h, token, ns, { v, n: j })).id);
    ({ plan, change: ch } = await planAndApply(h, token, ns, { editFields: [{ id: m.f.v, ...k.to }] }, () => ({ choice: "convert" })));
    await run(h);
  });

  test("plan counts", () => {
    expect(plan.ops).toHaveLength(1);
    expect(plan.ops[0].counts).toEqual(k.counts);
  });

  test("values read back through GET /api/entries", async () => {
    const rows = await readEntries(h, dev, ns, "sort=n");
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(rows.map((r) => r[k.readAs ?? "v"])).toEqual(k.after());
    if (k.readAs) expect(rows.every((r) => !("v" in r))).toBe(true);
  });

  test("the change is done, and every value that failed is listed", async () => {
    const c = await change(h, token, ch.id);
    expect(c.state).toBe("done");
    expect(c.resultVersion).toBe(m.version + 1);
    expect(c.failures.total).toBe(k.counts.fail);
    const failedAt = k
      .after()
      .map((v, j) => (v === null && k.values()[j] !== null && !(Array.isArray(k.values()[j]) && (k.values()[j] as unknown[]).length === 0) ? ids[j] : null))
      .filter(Boolean);
    expect(c.failures.data.map((f: any) => f.entryId).sort()).toEqual([...failedAt].sort());
    for (const f of c.failures.data) {
      expect(f).toMatchObject({ fieldId: m.f.v, namespace: "v", copy: "draft" });
      expect(f.value).toEqual(k.values()[ids.indexOf(f.entryId)]);
      expect(typeof f.reason).toBe("string");
    }
  });
});
