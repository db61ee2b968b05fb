// Reading a field-change body (`editFields` and `removeIds`, as for a model update) into ops:
// one per field whose type, array type, relation or namespace changes, and one per removed
// field, each with the choices it allows. The plan hash covers the model's id and version and
// the whole resulting field list, so a plan goes stale when the model changes or the body differs.
import { badField } from "../../errors.ts";
import { sha256Hex } from "../../infra/crypto.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { parseField, type FieldInput } from "../models/validate.ts";
import type { Model } from "../models/catalog.ts";
import type { FieldDef } from "../models/fields.ts";
import { convertible } from "./convert.ts";
import { changedRules, checkSlugSources, followRenames } from "../models/settings.ts";
import { comparesEntries } from "./rule-ops.ts";

/** What a decision may choose for an op (each op allows some of them). */
export const CHOICES = ["convert", "clear", "keep_both", "delete", "keep"] as const;
export type Choice = (typeof CHOICES)[number];

/** The parts of a field an op changes. */
export interface Shape {
  namespace: string;
  type: string;
  arrayType: string | null;
  relation: string | null;
}

/** One change to one field, as a plan names it. */
export interface Op {
  /** The op's id is the id of the field it changes. */
  id: string;
  /**
   * `change`: type, array type or relation (perhaps with a new namespace); `rename`: namespace
   * only; `remove`; `rule`: new or tighter rules on the values (rule-ops.ts), whose id is
   * `<fieldId>.rules` so a field renamed and given rules in one change has two ops; `localize`:
   * `localized` turned on or off (localize.ts), id `<fieldId>.localized`.
   */
  kind: "change" | "rename" | "remove" | "rule" | "localize";
  fieldId: string;
  /** The field's namespace before the change. */
  namespace: string;
  from: Shape;
  to: Shape | null;
  choices: Choice[];
  /** Where `keep_both` keeps the old values. */
  keepBothNamespace: string | null;
  /** For a `rule` op: the settings whose rules changed (unique, min, max, minLength, maxLength, pattern, slug). */
  rules?: string[];
  /** For a `localize` op: whether the field becomes localized (true) or shared (false). */
  localized?: boolean;
}

/** A field-change body read against a model. */
export interface Diff {
  /** Field edits, normalised (relations by model id), as updateModel takes them. */
  editFields: FieldDef[];
  removeIds: string[];
  ops: Op[];
  /** The model's fields after the change, without keep_both copies. */
  fields: FieldDef[];
  planHash: string;
}

/** The parts of a field an op compares. */
export function shapeOf(f: FieldDef): Shape {
  return { namespace: f.namespace, type: f.type, arrayType: f.arrayType, relation: f.relation };
}

/** A free namespace for the old values: `<namespace>_old`, else `<namespace>_old_2`, and so on. */
function keepBothName(ns: string, taken: Set<string>): string {
  for (let i = 1; ; i++) {
    const suffix = i === 1 ? "_old" : `_old_${i}`;
    const name = ns.slice(0, 64 - suffix.length) + suffix;
    if (!taken.has(name)) return name;
  }
}

/** Reads `{ editFields?, removeIds? }` (of the shape PlanBody checks) against a model. */
export function readDiff(s: Services, h: ProjectHandle, m: Model, body: { editFields?: readonly FieldInput[]; removeIds?: readonly string[] }): Diff {
  const removeIds: string[] = [];
  if (body.removeIds !== undefined) {
    body.removeIds.forEach((id, i) => {
      const f = m.fields.find((x) => x.id === id.toLowerCase());
      if (!f) badField(`removeIds[${i}]`, `removeIds[${i}] is not a field of this model`);
      if (removeIds.includes(f.id)) badField(`removeIds[${i}]`, `removeIds[${i}] is listed twice`);
      removeIds.push(f.id);
    });
  }
  const edits = new Map<string, FieldDef>();
  const paths = new Map<string, string>();
  if (body.editFields !== undefined) {
    body.editFields.forEach((raw, i) => {
      const path = `editFields[${i}]`;
      const id = raw.id;
      const before = typeof id === "string" ? m.fields.find((f) => f.id === id.toLowerCase()) : undefined;
      if (!before) badField(`${path}.id`, `${path}.id is not a field of this model`);
      if (removeIds.includes(before.id)) badField(`${path}.id`, `${path}.id is also in removeIds`);
      if (edits.has(before.id)) badField(`${path}.id`, `${path}.id is edited twice`);
      edits.set(before.id, parseField(s, h, raw, path, { id: m.id, namespace: m.namespace }, before));
      paths.set(before.id, path);
    });
  }
  // As a model edit does (models/service.ts): slugs follow a renamed source and must name a text field.
  const fields = followRenames(
    m.fields,
    m.fields.filter((f) => !removeIds.includes(f.id)).map((f) => edits.get(f.id) ?? f),
  );
  checkSlugSources(fields, (f) => paths.get(f.id) ?? null);
  for (const f of fields) if (edits.has(f.id)) edits.set(f.id, f);
  const names = new Set<string>();
  fields.forEach((f) => {
    if (names.has(f.namespace)) badField("editFields", `Two fields would be named "${f.namespace}"`);
    names.add(f.namespace);
  });
  const ops: Op[] = [];
  for (const [id, after] of edits) {
    const before = m.fields.find((f) => f.id === id)!;
    const typeChanged = after.type !== before.type || after.arrayType !== before.arrayType || after.relation !== before.relation;
    const rules = changedRules(before, after);
    if (typeChanged && comparesEntries(rules)) {
      // Uniqueness is counted on the values as stored; on converted ones it could not be.
      badField(paths.get(id)!, `${paths.get(id)}: make "${before.namespace}" unique (or a slug) in a change of its own, after its change of type`);
    }
    const localizedChanged = (after.localized === true) !== (before.localized === true);
    if (localizedChanged && (typeChanged || rules.length > 0)) {
      // Values change shape (one per locale, or one) in a localize op: counted on other shapes, the rest could not be.
      badField(paths.get(id)!, `${paths.get(id)}: turn localized on or off for "${before.namespace}" in a change of its own`);
    }
    const localizeOp: Op | null = localizedChanged
      ? {
          id: `${id}.localized`,
          kind: "localize",
          fieldId: id,
          namespace: before.namespace,
          from: shapeOf(before),
          to: shapeOf(after),
          choices: ["convert"],
          keepBothNamespace: null,
          localized: after.localized === true,
        }
      : null;
    const ruleOp: Op | null =
      !typeChanged && rules.length > 0
        ? {
            id: `${id}.rules`,
            kind: "rule",
            fieldId: id,
            namespace: before.namespace,
            from: shapeOf(before),
            to: shapeOf(after),
            choices: comparesEntries(rules) ? ["clear"] : ["keep", "clear"],
            keepBothNamespace: null,
            rules,
          }
        : null;
    if (!typeChanged && after.namespace === before.namespace) {
      if (ruleOp) ops.push(ruleOp);
      if (localizeOp) ops.push(localizeOp);
      continue;
    }
    const kind = typeChanged ? "change" : "rename";
    const choices: Choice[] = kind === "rename" ? ["convert"] : convertible(before, after) ? ["convert", "clear", "keep_both"] : ["clear", "keep_both"];
    const keep = kind === "change" ? keepBothName(before.namespace, names) : null;
    if (keep) names.add(keep);
    ops.push({ id, kind, fieldId: id, namespace: before.namespace, from: shapeOf(before), to: shapeOf(after), choices, keepBothNamespace: keep });
    if (ruleOp) ops.push(ruleOp);
    if (localizeOp) ops.push(localizeOp);
  }
  for (const id of removeIds) {
    const before = m.fields.find((f) => f.id === id)!;
    ops.push({ id, kind: "remove", fieldId: id, namespace: before.namespace, from: shapeOf(before), to: null, choices: ["delete"], keepBothNamespace: null });
  }
  const editFields = [...edits.values()];
  const planHash = sha256Hex(JSON.stringify({ model: m.id, version: m.version, fields, removeIds: [...removeIds].sort() }));
  return { editFields, removeIds, ops, fields, planHash };
}

/** The ops of two diffs are the same changes (used when a failed change is resumed on a newer model). */
export function sameOps(a: Op[], b: Op[]): boolean {
  return JSON.stringify(a.map(({ keepBothNamespace: _, ...o }) => o)) === JSON.stringify(b.map(({ keepBothNamespace: _, ...o }) => o));
}
