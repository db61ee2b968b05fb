// The entry layout routes of /v2 (interface.md, Management routes: Entry layouts), used only by
// the lazily loaded layout editor. The layout itself is read with the model (GET /v2/models).
import type { LayoutBody } from "../../../src/shared/bodies.ts";
import { call } from "./client.ts";
import type { Layout, Model } from "./types.ts";

/** One function per documented route. */
export const layoutApi = {
  /** Saves a layout; the answer is the model with the layout as the server stored it. */
  save: (modelId: string, layout: Layout) => call<Model>("PUT", `/v2/models/${modelId}/layout`, { body: { layout } satisfies LayoutBody }),
  /** Resets the model to the plain editor (one column of every field). */
  reset: (modelId: string) => call<void>("DELETE", `/v2/models/${modelId}/layout`),
};
