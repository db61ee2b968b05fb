// The schemas of a server: one per project, model-set version and readable model ids, built on
// first use and dropped when a model of the project changes (decisions.md 3: "the GraphQL schema
// of that project is invalidated at once").
import { LRUCache } from "lru-cache";
import type { ProjectHandle } from "../storage/pool.ts";
import { allModels } from "../domain/models/catalog.ts";
import { buildSchema, type Built } from "./schema.ts";

/** Built schemas by project, model-set version and readable model ids; dropped when a model changes. */
export class SchemaCache {
  private readonly lru: LRUCache<string, Built>;
  builds = 0;

  /** Keeps at most `max` schemas (CAPA_GRAPHQL_SCHEMAS): a schema of 50 models with its parsed documents is megabytes. */
  constructor(max = 32) {
    this.lru = new LRUCache<string, Built>({ max });
  }

  /** The number of schemas kept now. */
  get size(): number {
    return this.lru.size;
  }

  /** The schema of the models `readable` accepts, built once per model-set version. */
  get(h: ProjectHandle, readable: (modelId: string) => boolean): Built {
    const ms = allModels(h);
    const models = ms.list.filter((m) => readable(m.id));
    // A second locale adds the locale arguments (schema.ts): the key says whether the project has one.
    const locales = ms.locales.codes.length > 1;
    const key = `${h.id}|${ms.version}|${locales ? "L" : "1"}|${models.length === ms.list.length ? "*" : models.map((m) => m.id).join(",")}`;
    let b = this.lru.get(key);
    if (!b) {
      b = buildSchema(models, { locales });
      this.builds++;
      this.lru.set(key, b);
    }
    return b;
  }

  /** Drops every schema of a project (a model changed). */
  drop(projectId: string): void {
    for (const k of [...this.lru.keys()]) if (k.startsWith(`${projectId}|`)) this.lru.delete(k);
  }
}
