// Relation expansion reads one query per relation level, never one per entry: counted on the
// project file's own statements while a page of 25 entries expands three levels.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { readList } from "../../src/domain/reads/query.ts";
import { listArgsOf } from "../../src/domain/reads/args.ts";
import { DRAFTS } from "../../src/domain/reads/names.ts";

let h: Harness;
let projectId: string;

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  projectId = o.project.id;
  const t = o.token;
  const person = await h.json("POST", "/v2/models", {
    token: t,
    body: {
      name: "Person",
      namespace: "person",
      fields: [
        { namespace: "name", type: "string" },
        { namespace: "mentor", type: "relation", relation: "person" },
      ],
    },
  });
  expect(person.status).toBe(201);
  const post = await h.json("POST", "/v2/models", {
    token: t,
    body: {
      name: "Post",
      namespace: "post",
      fields: [
        { namespace: "title", type: "string" },
        { namespace: "author", type: "relation", relation: "person" },
        { namespace: "editors", type: "array", arrayType: "relation", relation: "person" },
      ],
    },
  });
  expect(post.status).toBe(201);
  // A chain of mentors three deep, and 25 posts that each name different people.
  let mentor: string | null = null;
  const people: string[] = [];
  for (let i = 0; i < 30; i++) {
    const p = await h.json("POST", "/v2/model-instances", { token: t, body: { model: "person", data: { name: `P${i}`, mentor } } });
    people.push(p.body.id);
    mentor = i % 3 === 2 ? null : p.body.id;
  }
  for (let i = 0; i < 25; i++) {
    await h.json("POST", "/v2/model-instances", {
      token: t,
      body: { model: "post", data: { title: `Post ${i}`, author: people[i], editors: [people[(i + 1) % 30], people[(i + 2) % 30]] } },
    });
  }
});
afterAll(() => h.close());

test("a page of 25 entries expanded three levels deep issues 1 + 3 statements", () => {
  const handle = h.capa.services.projects.get(projectId);
  const sqlite = handle.sqlite;
  const original = sqlite.query.bind(sqlite);
  const statements: string[] = [];
  // Count the statements the read prepares and runs on this file.
  (sqlite as unknown as { query: typeof sqlite.query }).query = ((sql: string) => {
    statements.push(sql);
    return original(sql);
  }) as typeof sqlite.query;
  try {
    const r = readList(
      handle,
      { vis: DRAFTS, readable: () => true },
      "post",
      listArgsOf(new URLSearchParams("limit=25&select=title,author(name,mentor(name,mentor(name))),editors(name)")),
    );
    expect(r.data).toHaveLength(25);
    const withMentors = r.data.filter((p) => (p.author as { mentor: unknown } | null)?.mentor);
    expect(withMentors.length).toBeGreaterThan(10);
    expect((r.data[0]!.editors as unknown[]).length).toBe(2);
  } finally {
    (sqlite as unknown as { query: typeof sqlite.query }).query = original;
  }
  const expansions = statements.filter((s) => s.includes("json_each(?)") && s.includes("e.id IN"));
  // Level 1 (author and editors together), level 2 (mentor), level 3 (mentor's mentor).
  expect(expansions).toHaveLength(3);
  expect(statements.filter((s) => s.startsWith("SELECT e.id")).length).toBe(1 + 3);
});
