// Entry layouts: saved on the model row, live at once, and not versioned with the model
// (interface.md, Entry layout). Saving a layout is not a model change: the model's version,
// read caches and GraphQL schemas stay as they are; only the cached model list is dropped.
import { eq } from "drizzle-orm";
import { models } from "../../storage/project/schema.ts";
import type { Static } from "@sinclair/typebox";
import type { ProjectHandle } from "../../storage/pool.ts";
import { findModel, modelOrFail, type Model } from "../models/catalog.ts";
import { validateLayout, type Layout } from "./validate.ts";
import type { LayoutBody } from "./bodies.ts";

/** Writes a model's layout column (JSON or null). The model list cache is read on every request. */
export function writeLayout(h: ProjectHandle, modelId: string, layout: Layout | null): void {
  h.db
    .update(models)
    .set({ layout: layout === null ? null : JSON.stringify(layout) })
    .where(eq(models.id, modelId))
    .run();
  h.cache.delete("models");
}

/**
 * `PUT /v2/models/:id/layout` with `{ layout }` (its shape checked by LayoutBody, which refuses a
 * body without the key, so a client that forgot it never wipes a layout by accident): validates
 * the layout against the model's fields and saves it; `null` resets to the plain editor.
 */
export function putLayout(h: ProjectHandle, ref: string, body: Static<typeof LayoutBody>): Model {
  const m = modelOrFail(h, ref, "id");
  const layout = body.layout === null ? null : validateLayout(body.layout, m.fields);
  writeLayout(h, m.id, layout);
  return findModel(h, m.id)!;
}

/** `DELETE /v2/models/:id/layout`: back to the plain editor. */
export function deleteLayout(h: ProjectHandle, ref: string): void {
  const m = modelOrFail(h, ref, "id");
  writeLayout(h, m.id, null);
}
