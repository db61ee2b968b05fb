// Seeding large projects for benchmarks: models through the domain, entries by bulk insert of
// the same stored shape the domain writes (data keyed by field id, comparison keys, a version row).
import type { CapaApp } from "../../src/app.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { createProject } from "../../src/domain/projects/service.ts";
import { createModel } from "../../src/domain/models/service.ts";
import { comparisonKeys } from "../../src/domain/models/fields.ts";
import { mintKey } from "../../src/domain/keys/mint.ts";

export interface Seeded {
  projectId: string;
  /** The owner, who saved every version (password `bench-password`). */
  email: string;
  prodKey: string;
  devKey: string;
}

/** A project with `authors` authors and `posts` posts (title, price, day, author, body), all published. */
export function seedBig(capa: CapaApp, posts: number, authors: number): Seeded {
  const s = capa.services;
  const user = createUser(s, { email: `bench-${Date.now()}@example.com`, password: "bench-password" });
  const project = createProject(s, { name: "Bench", ownerId: user.id });
  const h = s.projects.get(project.id);
  const author = createModel(s, h, {
    name: "Author",
    namespace: "author",
    fields: [
      { namespace: "name", type: "string" },
      { namespace: "bio", type: "markdown" },
    ],
  });
  const post = createModel(s, h, {
    name: "Post",
    namespace: "post",
    fields: [
      { namespace: "title", type: "string" },
      { namespace: "price", type: "number" },
      { namespace: "day", type: "date" },
      { namespace: "author", type: "relation", relation: "author" },
      { namespace: "body", type: "markdown" },
    ],
  });
  const f = (m: typeof post, ns: string) => m.fields.find((x) => x.namespace === ns)!.id;
  const insertEntry = h.sqlite.prepare(`INSERT INTO entries (id, model_id, created_at, updated_at, draft_version_id, draft_version, draft_data, draft_tags,
    draft_keys, published_version_id, published_version, published_data, published_tags, published_at, published_updated_at, published_keys)
    VALUES (?, ?, ?, ?, ?, 1, ?, '[]', ?, ?, 1, ?, '[]', ?, ?, ?)`);
  const insertVersion = h.sqlite.prepare(
    `INSERT INTO entry_versions (id, entry_id, number, data, tags, created_at, created_by) VALUES (?, ?, 1, ?, '[]', ?, 'user:${user.id}')`,
  );
  const t0 = Date.UTC(2025, 0, 1);
  const add = (modelId: string, fields: typeof post.fields, data: Record<string, unknown>, i: number) => {
    const id = Bun.randomUUIDv7();
    const vid = Bun.randomUUIDv7();
    const at = new Date(t0 + i * 60_000).toISOString();
    const json = JSON.stringify(data);
    const keys = JSON.stringify(comparisonKeys(fields, data));
    insertEntry.run(id, modelId, at, at, vid, json, keys, vid, json, at, at, keys);
    insertVersion.run(vid, id, json, at);
    return id;
  };
  const authorIds: string[] = [];
  h.sqlite.transaction(() => {
    for (let i = 0; i < authors; i++)
      authorIds.push(add(author.id, author.fields, { [f(author, "name")]: `Author ${i}`, [f(author, "bio")]: `Bio of author ${i}` }, i));
    for (let i = 0; i < posts; i++) {
      const day = new Date(t0 + (i % 730) * 86_400_000).toISOString().slice(0, 10);
      add(
        post.id,
        post.fields,
        {
          [f(post, "title")]: `Post number ${i}`,
          [f(post, "price")]: (i * 7919) % 1000,
          [f(post, "day")]: day,
          [f(post, "author")]: authorIds[i % authors],
          [f(post, "body")]: `Body of post ${i}. `.repeat(4),
        },
        authors + i,
      );
    }
  })();
  h.sqlite.exec("ANALYZE");
  const prodKey = mintKey(s, project.id, { kind: "cli" }, { preset: "read_only" }).apiKey;
  const devKey = mintKey(s, project.id, { kind: "cli" }, { preset: "read_only", environment: "development" }).apiKey;
  s.changes.content(project.id);
  return { projectId: project.id, email: user.email, prodKey, devKey };
}
