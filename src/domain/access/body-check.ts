// The refusal of a /v2 body that does not fit its TypeBox model: one sentence naming one field,
// the same `400 { error, code: "invalid_body", field }` the domain's own checks give.
//
// TypeBox decides whether a body fits (Value.Check); this file only picks which problem to name,
// in the order a person reads the model: unknown keys first (on a model that refuses them), then
// each property in declaration order, list items in order. TypeBox's own error walk reports every
// missing required key before any wrong value, which would name a later field first.
//
// The sentence comes from the schema that does not fit, from three keywords our models add to
// JSON Schema (the OpenAPI documents strip them, src/http/openapi/json-schema.ts):
// - `error`: the sentence when a value does not fit; `{field}` is replaced by the field's path
//   (`scopes[2]`, `targets[0].id`), so one schema serves every item of a list;
// - `missing`: the sentence when a required property is absent (default: its `error`);
// - `unknown`: on an object with `additionalProperties: false`, the sentence for a key it does
//   not know;
// - `count`: on a list, the sentence when it holds too few or too many items (default: `error`);
// - `code`: the catalogue code of the refusal, where a route answers another than invalid_body
//   (a confirmation that does not match is `confirmation_mismatch`, missing or not).
import { Kind, type TSchema, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { badField, CATALOGUE, type CatalogueEntry, type ErrorCode, fail } from "../../errors.ts";

/** The keywords our models add to JSON Schema; never part of a published document. */
export const SENTENCE_KEYWORDS = ["error", "missing", "unknown", "count", "code"] as const;

export interface BodyProblem {
  field: string;
  message: string;
  /** The refusal's code when it is not invalid_body. */
  code?: ErrorCode;
}

type Node = TSchema & {
  error?: string;
  missing?: string;
  unknown?: string;
  count?: string;
  code?: ErrorCode;
  properties?: Record<string, Node>;
  required?: string[];
  additionalProperties?: boolean | Node;
  items?: Node;
};

const fill = (sentence: string, field: string) => sentence.replaceAll("{field}", field);
const join = (path: string, key: string) => (path === "" ? key : `${path}.${key}`);
const isRecord = (v: unknown): boolean => v !== null && typeof v === "object" && !Array.isArray(v);

/** The sentence of a schema that a value does not fit: its own, or TypeBox's first message. */
function sentenceOf(schema: Node, value: unknown, field: string): BodyProblem {
  const name = field === "" ? "body" : field;
  if (typeof schema.error === "string") return { field: name, message: fill(schema.error, name), ...(schema.code ? { code: schema.code } : {}) };
  const first = Value.Errors(schema, value).First();
  return { field: name, message: `${name}: ${first?.message ?? "is not valid"}` };
}

/** The problem of an object that is an object: unknown keys, then its properties in order. */
function objectProblem(schema: Node, value: Record<string, unknown>, path: string): BodyProblem | null {
  const props = schema.properties ?? {};
  if (schema.additionalProperties === false) {
    for (const k of Object.keys(value)) {
      if (Object.hasOwn(props, k)) continue;
      const field = join(path, k);
      return { field, message: fill(schema.unknown ?? "{field} is not a known property", field) };
    }
  }
  const required = new Set(schema.required ?? []);
  for (const [k, prop] of Object.entries(props)) {
    const field = join(path, k);
    if (!Object.hasOwn(value, k)) {
      if (required.has(k))
        return { field, message: fill(prop.missing ?? prop.error ?? "{field} is required", field), ...(prop.code ? { code: prop.code } : {}) };
      continue;
    }
    const p = problemAt(prop, value[k], field);
    if (p) return p;
  }
  if (typeof schema.additionalProperties === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (Object.hasOwn(props, k)) continue;
      const p = problemAt(schema.additionalProperties, v, join(path, k));
      if (p) return p;
    }
  }
  return null;
}

/** The problem of `value` at `path`, or null when it fits. */
function problemAt(schema: Node, value: unknown, path: string): BodyProblem | null {
  // Checked apart from the narrowing: a model's Static type is no help to this walk.
  const fits: boolean = Value.Check(schema, value);
  if (fits) return null;
  const kind = schema[Kind];
  if (kind === "Object" && isRecord(value)) {
    // Count limits and the like belong to the object as a whole.
    return objectProblem(schema, value as Record<string, unknown>, path) ?? sentenceOf(schema, value, path);
  }
  if (kind === "Array" && Array.isArray(value) && schema.items) {
    const whole = { ...schema, items: Type.Unknown() } as Node;
    const wholeFits: boolean = Value.Check(whole, value);
    if (!wholeFits) return typeof schema.count === "string" ? { field: path, message: fill(schema.count, path) } : sentenceOf(schema, value, path);
    for (let i = 0; i < value.length; i++) {
      const p = problemAt(schema.items, value[i], `${path}[${i}]`);
      if (p) return p;
    }
  }
  return sentenceOf(schema, value, path);
}

/** The first problem of a body against its model, or null when the body fits. */
export function bodyProblem(schema: TSchema, body: unknown): BodyProblem | null {
  return problemAt(schema as Node, body, "");
}

/** Refuses a problem: `400 invalid_body` naming its field, or the code its schema names. */
export function refuse(p: BodyProblem): never {
  // A bare sentence of interface.md (`Invalid credentials`) is the whole body: no field beside it.
  if (p.code) fail(p.code, { message: p.message, extra: (CATALOGUE[p.code] as CatalogueEntry).bare ? undefined : { field: p.field } });
  badField(p.field, p.message);
}

/** Refuses a value that does not fit `schema`, naming `field`. */
export function checkValue(schema: TSchema, value: unknown, field: string): void {
  const p = problemAt(schema as Node, value, field);
  if (p) refuse(p);
}
