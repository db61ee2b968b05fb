// `GET /v2/scheduled-actions?expand=target`: each action names its target in words (the entry's
// title and model, or the model's name; `missing` once the entry is deleted), so the admin's
// scheduled screen links its rows without a request per row.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MIN, post, schedule, wallIn, world, type World } from "./helpers.ts";

describe("expand=target", () => {
  let w: World;
  let modelId: string;
  beforeAll(async () => {
    w = await world();
    modelId = (await w.h.json("GET", "/v2/models/post", { token: w.token })).body.id;
  });
  afterAll(() => w.h.close());

  test("entries by title and model, models by name, deleted entries as missing; without expand no target", async () => {
    const a = await post(w, "Spring launch");
    const untitled = await post(w, null);
    const gone = await post(w, "Gone soon");
    await schedule(w, { action: "publish", targets: [{ type: "instance", id: a.id }], wallTime: wallIn(w, 2 * MIN) });
    await schedule(w, { action: "publish", targets: [{ type: "instance", id: untitled.id }], wallTime: wallIn(w, 3 * MIN) });
    await schedule(w, { action: "unpublish", targets: [{ type: "model", id: "post" }], wallTime: wallIn(w, 4 * MIN) });
    await schedule(w, { action: "publish", targets: [{ type: "instance", id: gone.id }], wallTime: wallIn(w, 5 * MIN) });
    expect((await w.h.json("DELETE", `/v2/model-instances/${gone.id}`, { token: w.token })).status).toBe(204);

    const r = await w.h.json("GET", "/v2/scheduled-actions?expand=target", { token: w.token });
    expect(r.status).toBe(200);
    expect(r.body.data.map((x: { target: unknown }) => x.target)).toEqual([
      { type: "instance", id: a.id, modelId, namespace: "post", title: "Spring launch", missing: false },
      { type: "instance", id: untitled.id, modelId, namespace: "post", title: null, missing: false },
      { type: "model", id: modelId, modelId, namespace: "post", title: "Post", missing: false },
      { type: "instance", id: gone.id, modelId: null, namespace: null, title: null, missing: true },
    ]);
    // The rest of each item is the action as without expand.
    const plain = await w.h.json("GET", "/v2/scheduled-actions", { token: w.token });
    expect(r.body.data.map(({ target: _, ...rest }: Record<string, unknown>) => rest)).toEqual(plain.body.data);
    expect(plain.body.data.every((x: Record<string, unknown>) => !("target" in x))).toBe(true);
  });

  test("another expand value: 400 invalid_body naming expand", async () => {
    const r = await w.h.json("GET", "/v2/scheduled-actions?expand=entry", { token: w.token });
    expect([r.status, r.body]).toEqual([400, { error: "expand must be target (each action's target in words)", code: "invalid_body", field: "expand" }]);
  });
});
