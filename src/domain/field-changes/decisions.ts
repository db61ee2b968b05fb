// What an apply decides for each op of the plan (keep, convert, keep_both, ...; on a failed
// conversion, clear or stop), read strictly from the body, and the fields those decisions give
// the model once it moves: keep_both keeps the old values in a new field beside the changed one.
import type { Static } from "@sinclair/typebox";
import type { ApplyBody } from "./bodies.ts";
import { badField } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { Model } from "../models/catalog.ts";
import type { FieldDef } from "../models/fields.ts";
import type { Diff, Op } from "./diff.ts";
import type { Decision } from "./stage.ts";
import { SETTING_KEYS } from "../models/settings.ts";

/** Reads `decisions: [{ opId, choice, onFailure? }]`: exactly one allowed decision per op. */
export function readDecisions(ops: Op[], raw: Static<typeof ApplyBody>["decisions"]): Record<string, Decision> {
  const out: Record<string, Decision> = {};
  raw.forEach((o, i) => {
    const at = `decisions[${i}]`;
    const op = ops.find((x) => x.id === o.opId);
    if (!op) badField(`${at}.opId`, `${at}.opId is not an op of this plan`);
    if (out[op.id]) badField(`${at}.opId`, `${at}.opId is decided twice`);
    if (!op.choices.includes(o.choice as Op["choices"][number])) badField(`${at}.choice`, `${at}.choice must be one of ${op.choices.join(", ")} for this op`);
    let onFailure: Decision["onFailure"] = null;
    if (o.choice === "convert" && op.kind === "change") {
      onFailure = o.onFailure ?? "clear";
    } else if (o.onFailure !== undefined) {
      badField(`${at}.onFailure`, `${at}.onFailure is only for a convert decision on a change of type`);
    }
    out[op.id] = { choice: o.choice as Decision["choice"], onFailure };
  });
  const missing = ops.find((op) => !out[op.id]);
  if (missing) badField("decisions", `decisions has no decision for op ${missing.id} (field "${missing.namespace}")`);
  return out;
}

/** The fields that keep old values for keep_both decisions (ids reused when given). */
export function keepBothFields(
  s: Services,
  m: Model,
  ops: Op[],
  decisions: Record<string, Decision>,
  prev: Record<string, FieldDef> = {},
): Record<string, FieldDef> {
  const out: Record<string, FieldDef> = {};
  for (const op of ops) {
    if (decisions[op.id]?.choice !== "keep_both") continue;
    const before = m.fields.find((f) => f.id === op.fieldId)!;
    // The old values are kept as they were: none of the changed field's settings (unique, slug, ...) comes along.
    const plain = Object.fromEntries(Object.entries(before).filter(([k]) => !(SETTING_KEYS as readonly string[]).includes(k))) as unknown as FieldDef;
    out[op.id] = {
      ...plain,
      id: prev[op.id]?.id ?? s.ids.uuid(),
      namespace: op.keepBothNamespace!,
      required: false,
      label: `${before.label ?? before.namespace} (old)`.slice(0, 200),
    };
  }
  return out;
}

/** The model's fields once the change moves it: the diff's fields, then the keep_both copies. */
export function targetOf(diff: Pick<Diff, "fields" | "ops">, keepBoth: Record<string, FieldDef>): FieldDef[] {
  return [...diff.fields, ...diff.ops.filter((o) => keepBoth[o.id]).map((o) => keepBoth[o.id]!)];
}
