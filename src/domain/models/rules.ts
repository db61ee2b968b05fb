// The rules a field's settings make of its values (decisions.md 15), one value at a time:
// required, length, pattern, bounds and the shape of a slug. Publishing checks them all
// (entries/validation.ts); a field-change plan counts the values a new rule breaks
// (rule-breaks.ts). `unique` compares entries with each other and lives in entries/unique.ts.
// Every message names the field by its label (its namespace when it has none), never a path.
import type { ProjectHandle } from "../../storage/pool.ts";
import { type FieldDef, fits } from "./fields.ts";
import { matchesPattern } from "./patterns.ts";
import { TEXT_KINDS } from "./settings.ts";

/** One broken rule of one value. */
export interface RuleProblem {
  rule: "required" | "minLength" | "maxLength" | "pattern" | "min" | "max" | "slug";
  message: string;
}

/** What lowercase ASCII letters, digits and single hyphens look like. */
export const SLUG_SHAPE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** How a message names a field: its label, or its namespace when it has none. */
export function fieldName(f: Pick<FieldDef, "label" | "namespace">): string {
  return f.label?.trim() ? f.label.trim() : f.namespace;
}

/** Whether a value counts as empty: absent, null, "" or an empty list (the rules skip it; `required` refuses it). */
export function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);
}

/** A text's length in characters (code points: an emoji is one, as a person counts it). */
export function textLength(v: string): number {
  let n = v.length;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The rules a stored value breaks, `required` included. A value that no longer fits the field
 * (after a model edit) reads as null, so it counts as empty here too.
 */
export function valueProblems(h: ProjectHandle, f: FieldDef, raw: unknown): RuleProblem[] {
  const v = raw === undefined || !fits(f, raw) ? null : raw;
  const name = fieldName(f);
  if (isEmpty(v)) return f.required ? [{ rule: "required", message: `${name} is required before the entry can be published` }] : [];
  const out: RuleProblem[] = [];
  if (TEXT_KINDS.has(f.type) && typeof v === "string") {
    const len = f.minLength !== undefined || f.maxLength !== undefined ? textLength(v) : 0;
    if (f.minLength !== undefined && len < f.minLength) {
      out.push({ rule: "minLength", message: `${name} must be at least ${plural(f.minLength, "character", "characters")} long (it has ${len})` });
    }
    if (f.maxLength !== undefined && len > f.maxLength) {
      out.push({ rule: "maxLength", message: `${name} must be at most ${plural(f.maxLength, "character", "characters")} long (it has ${len})` });
    }
    if (f.pattern !== undefined && !matchesPattern(h, f.pattern, v)) {
      out.push({ rule: "pattern", message: f.patternMessage ?? `${name} does not have the required form (pattern ${f.pattern})` });
    }
    if (f.slug && !SLUG_SHAPE.test(v)) {
      out.push({ rule: "slug", message: `${name} must be lowercase letters, digits and single hyphens, such as "my-first-post"` });
    }
  }
  if (f.type === "number" && typeof v === "number") {
    if (f.min !== undefined && v < f.min) out.push({ rule: "min", message: `${name} must be at least ${f.min} (it is ${v})` });
    if (f.max !== undefined && v > f.max) out.push({ rule: "max", message: `${name} must be at most ${f.max} (it is ${v})` });
  }
  if (f.type === "array" && Array.isArray(v)) {
    if (f.min !== undefined && v.length < f.min) {
      out.push({ rule: "min", message: `${name} must hold at least ${plural(f.min, "item", "items")} (it holds ${v.length})` });
    }
    if (f.max !== undefined && v.length > f.max) {
      out.push({ rule: "max", message: `${name} must hold at most ${plural(f.max, "item", "items")} (it holds ${v.length})` });
    }
  }
  return out;
}
