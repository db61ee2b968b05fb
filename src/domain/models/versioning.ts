// What every saved model change does besides the row itself, in its unit of work: a snapshot of
// the new version (model_versions), the project's model-set version moved (so read caches and
// GraphQL schemas keyed on it are dropped, and the edge caches purged), and model.published for
// webhooks.
import { modelVersions } from "../../storage/project/schema.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { actorFrom } from "../events/outbox.ts";
import type { Tx } from "../unit-of-work.ts";
import type { Model } from "./catalog.ts";
import { purgeModel } from "../edge/changes.ts";

/**
 * Moves the model-set version and drops the project's cached models, after commit telling the
 * caches too; the edge caches drop the answers of the model `namespace` and of GraphQL.
 */
export function bumpModelSet(tx: Tx, namespace: string): void {
  const h = tx.h;
  h.sqlite
    .query("INSERT INTO settings (name, value) VALUES ('model_set_version', '1') ON CONFLICT(name) DO UPDATE SET value = CAST(value AS INTEGER) + 1")
    .run();
  h.cache.delete("models");
  tx.modelsChanged();
  purgeModel(tx, namespace);
}

/** Stores the model as its version in model_versions. */
export function snapshot(h: ProjectHandle, m: Model, now: string): void {
  h.db
    .insert(modelVersions)
    .values({ modelId: m.id, version: m.version, snapshot: JSON.stringify(m), createdAt: now })
    .run();
}

/** Every saved model change is a new model version and emits model.published. */
export function modelPublished(s: Services, tx: Tx, m: Model, actor: string): void {
  tx.emit({
    type: "model.published",
    actor: actorFrom(actor),
    data: { modelId: m.id, modelNamespace: m.namespace, version: m.version, name: m.name },
    // interface.md: `self` is the resource on the agent API (the mount a key reaches).
    links: { self: `${s.config.apiUrl}/v2/agent/models/${m.id}` },
  });
}
