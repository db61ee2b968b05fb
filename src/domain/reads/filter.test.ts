// Table-driven unit tests of `where` compilation (src/domain/reads/filter.ts): each filter is
// compiled for a model and run against a small in-memory entries table, so what is asserted is
// which entries match, not the SQL's spelling; refusals name their code and message.
import { beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { AppError } from "../../errors.ts";
import type { Model } from "../models/catalog.ts";
import type { FieldDef } from "../models/fields.ts";
import { compileWhere } from "./filter.ts";
import { DRAFTS } from "./names.ts";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const model = (mid: string, namespace: string, fields: FieldDef[]): Model => ({
  id: mid,
  namespace,
  name: namespace,
  description: null,
  singleEntry: false,
  fields,
  layout: null,
  embedByDefault: false,
  previewUrl: null,
  version: 1,
  createdAt: "",
  updatedAt: "",
});
/** A field with the defaults of a plain one. */
const field = (fid: string, namespace: string, type: FieldDef["type"], more: Partial<FieldDef> = {}): FieldDef => ({
  id: fid,
  namespace,
  label: null,
  type,
  arrayType: null,
  relation: null,
  required: false,
  options: null,
  ...more,
});
const F = { title: id(101), price: id(102), author: id(103), tags: id(104), name: id(105), onSale: id(106) };
const author = model(id(1), "author", [field(F.name, "name", "string")]);
const post = model(id(2), "post", [
  field(F.title, "title", "string"),
  field(F.price, "price", "number"),
  field(F.author, "author", "relation", { relation: author.id }),
  field(F.tags, "tags", "array", { arrayType: "string" }),
  field(F.onSale, "onSale", "true_false"),
]);

let db: Database;
beforeAll(() => {
  db = new Database(":memory:");
  // The columns a draft read's filter touches (a hop reads the target's visible clause, trash mark included).
  db.exec("CREATE TABLE entries (id TEXT PRIMARY KEY, model_id TEXT, draft_data TEXT, deleted_at TEXT)");
  const add = (eid: string, mid: string, data: Record<string, unknown>) =>
    db.query("INSERT INTO entries (id, model_id, draft_data) VALUES (?, ?, ?)").run(eid, mid, JSON.stringify(data));
  add(id(11), author.id, { [F.name]: "Ann" });
  add(id(12), author.id, { [F.name]: "Bob" });
  add(id(21), post.id, { [F.title]: "Alpha", [F.price]: 10, [F.author]: id(11), [F.tags]: ["a", "b"], [F.onSale]: true });
  add(id(22), post.id, { [F.title]: "Beta", [F.price]: 20, [F.author]: id(12), [F.tags]: ["b"], [F.onSale]: false });
  add(id(23), post.id, { [F.title]: "Gamma", [F.price]: 30, [F.tags]: [] });
  add(id(24), post.id, { [F.title]: "Delta" });
});

/** The titles of the posts a where matches, in title order. */
function match(where: unknown): string[] {
  const ctx = { models: { byId: new Map([author, post].map((m) => [m.id, m])) }, vis: DRAFTS, readable: () => true, params: [] as unknown[], used: [] };
  const cond = compileWhere(ctx, post, where, "e");
  const sql = `SELECT json_extract(e.draft_data, '$."${F.title}"') AS t FROM entries e WHERE e.model_id = ? AND (${cond}) ORDER BY t`;
  return (db.query(sql).all(post.id, ...(ctx.params as string[])) as { t: string }[]).map((r) => r.t);
}

describe("compileWhere: what matches", () => {
  const cases: [string, unknown, string[]][] = [
    ["a bare value is eq", { title: "Beta" }, ["Beta"]],
    ["ne keeps entries without a value", { title: { ne: "Beta" } }, ["Alpha", "Delta", "Gamma"]],
    ["in", { price: { in: [10, 30] } }, ["Alpha", "Gamma"]],
    ["nin", { price: { nin: [10] } }, ["Beta", "Delta", "Gamma"]],
    ["lt / gte", { price: { lt: 30, gte: 20 } }, ["Beta"]],
    ["contains is case-sensitive", { title: { contains: "a" } }, ["Alpha", "Beta", "Delta", "Gamma"]],
    ["startsWith", { title: { startsWith: "Al" } }, ["Alpha"]],
    ["endsWith", { title: { endsWith: "ta" } }, ["Beta", "Delta"]],
    ["exists true", { price: { exists: true } }, ["Alpha", "Beta", "Gamma"]],
    ["null true", { price: { null: true } }, ["Delta"]],
    ["boolean eq", { onSale: true }, ["Alpha"]],
    ["list has", { tags: { has: "b" } }, ["Alpha", "Beta"]],
    ["list hasAll", { tags: { hasAll: ["a", "b"] } }, ["Alpha"]],
    ["list exists matches an empty list", { tags: { exists: true } }, ["Alpha", "Beta", "Gamma"]],
    ["relation id", { author: id(12) }, ["Beta"]],
    ["one hop into the relation", { "author.name": "Ann" }, ["Alpha"]],
    // not keeps entries where the inner filter does not hold, missing values included.
    ["or of and and not", { or: [{ title: "Alpha" }, { not: { price: { lte: 20 } } }] }, ["Alpha", "Delta", "Gamma"]],
    ["and", { and: [{ price: { gt: 5 } }, { price: { lt: 25 } }] }, ["Alpha", "Beta"]],
  ];
  for (const [name, where, titles] of cases) test(name, () => expect(match(where)).toEqual(titles));
});

describe("compileWhere: refusals", () => {
  const cases: [unknown, string][] = [
    [{ title: null }, "invalid_filter_value"],
    [{ price: { eq: "10" } }, "invalid_filter_value"],
    [{ nope: 1 }, "unknown_field"],
    [{ title: { like: "x" } }, "invalid_where"],
    [{ "author.name.x": "a" }, "unknown_field"],
    [{ not: {} }, "invalid_filter_value"],
  ];
  for (const [where, code] of cases) {
    test(`${JSON.stringify(where)}: ${code}`, () => {
      let error: unknown;
      try {
        match(where);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppError);
      expect([(error as AppError).code, (error as AppError).param]).toEqual([code, "where"]);
    });
  }
});
