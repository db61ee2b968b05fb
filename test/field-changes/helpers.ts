// Shared set-up of the field-change tests: a model with entries, plan and apply over HTTP, and the
// job body run directly with the harness's clock (never timers).
import { expect } from "bun:test";
import type { Harness } from "../harness.ts";
import { runFieldChanges, type RunOptions } from "../../src/domain/field-changes/runner.ts";

/** Creates a model over /v2 and returns it with a map of field ids by namespace. */
export async function model(h: Harness, token: string, namespace: string, fields: Record<string, unknown>[]) {
  const r = await h.json("POST", "/v2/models", { token, body: { name: namespace, namespace, fields } });
  expect(r.status).toBe(201);
  return { ...r.body, f: Object.fromEntries(r.body.fields.map((x: any) => [x.namespace, x.id])) as Record<string, string> };
}

/** Creates an entry (a draft) and, when asked, publishes it. */
export async function entry(h: Harness, token: string, namespace: string, data: Record<string, unknown>, publish = false) {
  const r = await h.json("POST", "/v2/model-instances", { token, body: { model: namespace, data } });
  expect(r.status).toBe(201);
  if (publish) expect((await h.json("POST", `/v2/model-instances/${r.body.id}/publish`, { token, body: {} })).status).toBe(200);
  return r.body;
}

/** Plans a change and expects 200. */
export async function plan(h: Harness, token: string, ref: string, body: Record<string, unknown>, prefix = "/v2", headers: Record<string, string> = {}) {
  const r = await h.json("POST", `${prefix}/models/${ref}/field-changes/plan`, { token, body, headers });
  expect(r.status).toBe(200);
  return r.body;
}

/** Plans and applies a change with one decision for every op (by op kind unless given). */
export async function planAndApply(h: Harness, token: string, ref: string, body: Record<string, unknown>, decide: (op: any) => Record<string, unknown>) {
  const p = await plan(h, token, ref, body);
  const r = await h.json("POST", `/v2/models/${ref}/field-changes`, {
    token,
    body: { ...body, planHash: p.planHash, decisions: p.ops.map((op: any) => ({ opId: op.id, ...decide(op) })) },
  });
  expect(r.status).toBe(202);
  return { plan: p, change: r.body };
}

/** Runs the field-changes job body once with the harness clock. */
export function run(h: Harness, opts: RunOptions = {}): Promise<number> {
  return runFieldChanges(h.capa.services, h.clock.now(), opts);
}

/** Reads one change. */
export async function change(h: Harness, token: string, id: string) {
  const r = await h.json("GET", `/v2/field-changes/${id}`, { token });
  expect(r.status).toBe(200);
  return r.body;
}
