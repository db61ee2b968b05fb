// The refusal of a /v2 body that does not fit its TypeBox model: one sentence naming one field,
// the same `400 { error, code: "invalid_body", field }` the domain's own checks give.
//
// TypeBox decides whether a body fits (Value.Check); this file only picks which problem to name,
// in the order a person reads the model: unknown keys first (on a model that refuses them), then
// each property in declaration order, list items in order. TypeBox's own error walk reports every
// missing required key before any wrong value, which would name a later field first.
//
// The sentence comes from the schema that does not fit, from keywords our models add to JSON
// Schema (the OpenAPI documents strip them, src/http/openapi/json-schema.ts):
// - `error`: the sentence when a value does not fit; `{field}` is replaced by the field's path
//   (`scopes[2]`, `targets[0].id`), so one schema serves every item of a list, and `{value}` by
//   the value sent, as JSON;
// - `missing`: the sentence when a required property is absent (default: its `error`);
// - `unknown`: on an object with `additionalProperties: false`, the sentence for a key it does
//   not know (`{key}`: that key as JSON);
// - `count`: on a list, the sentence when it holds too few or too many items (default: `error`),
//   `{length}` replaced by the number it holds;
// - `code`: the catalogue code of the refusal, where a route answers another than invalid_body
//   (a confirmation that does not match is `confirmation_mismatch`, missing or not);
// - `refusal: { code, key, root }`: every problem inside this schema is refused with `code`,
//   naming the place under `key` (say `path`) instead of `field`, measured from this schema when
//   `root` (an entry layout names `main[0].title`, not `layout.main[0].title`);
// - `messages`: sentences for single keywords (`{ maxLength: "url must be at most 2048
//   characters" }`), where one value may be wrong in more than one way worth telling apart;
// - `oneOfKeys`: on a union of objects told apart by which key they hold (a workspace node holds
//   one of folder, model, entry, media_folder): an object is judged by the member of the one key
//   it holds, and one holding none or several is refused saying so.
// A value of a union (`string or null`) is judged by the member of its own JSON type, when just
// one member has that type and a sentence of its own; otherwise by the union's sentence.
import { Kind, type Static, type TSchema, Type } from "@sinclair/typebox";
import { Value, ValueErrorType } from "@sinclair/typebox/value";
import { badField, CATALOGUE, type CatalogueEntry, type ErrorCode, fail } from "../../errors.ts";

/** The keywords our models add to JSON Schema; never part of a published document. */
export const SENTENCE_KEYWORDS = ["error", "missing", "unknown", "count", "code", "messages", "refusal", "oneOfKeys"] as const;

export interface BodyProblem {
  field: string;
  message: string;
  /** The refusal's code when it is not invalid_body. */
  code?: ErrorCode;
  /** The key of the refusal's body that names the place (default `field`). */
  key?: string;
}

/** How the problems inside a schema are refused (see `refusal` above). */
interface Refusal {
  code: ErrorCode;
  key?: string;
  root?: boolean;
}

type Node = TSchema & {
  error?: string;
  missing?: string;
  unknown?: string;
  count?: string;
  code?: ErrorCode;
  refusal?: Refusal;
  messages?: Record<string, string>;
  oneOfKeys?: string[];
  anyOf?: Node[];
  properties?: Record<string, Node>;
  required?: string[];
  additionalProperties?: boolean | Node;
  items?: Node;
};

const fill = (sentence: string, field: string, value?: unknown) =>
  sentence.replaceAll("{field}", field).replaceAll("{value}", () => JSON.stringify(value) ?? "undefined");
const join = (path: string, key: string) => (path === "" ? key : `${path}.${key}`);
const isRecord = (v: unknown): boolean => v !== null && typeof v === "object" && !Array.isArray(v);

/** The keyword each of TypeBox's error types checks, for `messages`. */
const KEYWORD: Record<string, string> = {
  StringMinLength: "minLength",
  StringMaxLength: "maxLength",
  StringPattern: "pattern",
  NumberMinimum: "minimum",
  NumberMaximum: "maximum",
  IntegerMinimum: "minimum",
  IntegerMaximum: "maximum",
  ArrayMinItems: "minItems",
  ArrayMaxItems: "maxItems",
};

/** A problem without a sentence of the model's: TypeBox's words, which a union may replace. */
interface Generic extends BodyProblem {
  generic?: true;
}

/** The sentence of a schema that a value does not fit: its own, or TypeBox's first message. */
function sentenceOf(schema: Node, value: unknown, field: string, refs: TSchema[]): Generic {
  const name = field === "" ? "body" : field;
  const first = Value.Errors(schema, refs, value).First();
  const keyword = first ? KEYWORD[ValueErrorType[first.type]!] : undefined;
  const sentence = (keyword && schema.messages?.[keyword]) ?? schema.error;
  if (typeof sentence === "string") return { field: name, message: fill(sentence, name, value), ...(schema.code ? { code: schema.code } : {}) };
  return { field: name, message: `${name}: ${first?.message ?? "is not valid"}`, generic: true };
}

/** The JSON type of a value, as a schema's Kind names it. */
function jsonKind(v: unknown): string[] {
  if (v === null) return ["Null"];
  if (Array.isArray(v)) return ["Array"];
  if (typeof v === "number") return Number.isInteger(v) ? ["Number", "Integer"] : ["Number"];
  return [{ string: "String", boolean: "Boolean", object: "Object" }[typeof v as "string"] ?? "Unknown"];
}

/** The union's member of the value's own type, when just one member has it. */
function memberOf(schema: Node, value: unknown): Node | null {
  const kinds = jsonKind(value);
  const same = (schema.anyOf ?? []).filter(
    (m) => kinds.includes(m[Kind]) || (m[Kind] === "Literal" && typeof (m as { const?: unknown }).const === typeof value),
  );
  return same.length === 1 ? same[0]! : null;
}

/** The problem of an object that is an object: unknown keys, then its properties in order. */
function objectProblem(schema: Node, value: Record<string, unknown>, path: string, refs: TSchema[]): BodyProblem | null {
  const props = schema.properties ?? {};
  if (schema.additionalProperties === false) {
    for (const k of Object.keys(value)) {
      if (Object.hasOwn(props, k)) continue;
      const field = join(path, k);
      return { field, message: fill(schema.unknown ?? "{field} is not a known property", field).replaceAll("{key}", JSON.stringify(k)) };
    }
  }
  const required = new Set(schema.required ?? []);
  for (const [k, prop] of Object.entries(props)) {
    const field = join(path, k);
    if (!Object.hasOwn(value, k)) {
      if (!required.has(k)) continue;
      const message = fill(prop.missing ?? prop.error ?? "{field} is required", field);
      if (prop.refusal) return { field, message, code: prop.refusal.code, key: prop.refusal.key };
      return { field, message, ...(prop.code ? { code: prop.code } : {}) };
    }
    const p = problemAt(prop, value[k], field, refs);
    if (p) return p;
  }
  if (typeof schema.additionalProperties === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (Object.hasOwn(props, k)) continue;
      const p = problemAt(schema.additionalProperties, v, join(path, k), refs);
      if (p) return p;
    }
  }
  return null;
}

/** The problem of `value` at `path`, or null when it fits. */
function problemAt(schema: Node, value: unknown, path: string, refs: TSchema[] = []): BodyProblem | null {
  // A recursive model (a workspace node's children are nodes) refers to itself by $id.
  if (schema[Kind] === "This") {
    const self = refs.find((r) => r.$id === (schema as { $ref?: string }).$ref);
    if (self) return problemAt(self as Node, value, path, refs);
  }
  if (typeof schema.$id === "string" && !refs.includes(schema)) refs = [...refs, schema];
  if (schema.refusal) {
    const { refusal, ...inner } = schema;
    const p = problemAt(inner as Node, value, refusal.root ? "" : path, refs);
    return p && { ...p, code: refusal.code, key: refusal.key };
  }
  // Checked apart from the narrowing: a model's Static type is no help to this walk.
  const fits: boolean = Value.Check(schema, refs, value);
  if (fits) return null;
  const kind = schema[Kind];
  if (kind === "Object" && isRecord(value)) {
    // Count limits and the like belong to the object as a whole.
    return objectProblem(schema, value as Record<string, unknown>, path, refs) ?? sentenceOf(schema, value, path, refs);
  }
  if (kind === "Union" && schema.oneOfKeys && isRecord(value)) {
    const held = schema.oneOfKeys.filter((k) => Object.hasOwn(value as object, k));
    if (held.length !== 1) {
      const has = held.length ? ` (it has ${held.join(" and ")})` : "";
      return { field: path, message: `${path} must have exactly one of ${schema.oneOfKeys.join(", ")}${has}` };
    }
    const member = (schema.anyOf ?? []).find((m) => m.required?.includes(held[0]!));
    if (member) return problemAt(member, value, path, refs);
  }
  if (kind === "Union") {
    const member = memberOf(schema, value);
    const p = member ? (problemAt(member, value, path, refs) as Generic | null) : null;
    if (p && !p.generic) return p;
  }
  if (kind === "Array" && Array.isArray(value) && schema.items) {
    const whole = { ...schema, items: Type.Unknown() } as Node;
    const wholeFits: boolean = Value.Check(whole, refs, value);
    if (!wholeFits) {
      return typeof schema.count === "string"
        ? { field: path, message: fill(schema.count, path).replaceAll("{length}", String(value.length)) }
        : sentenceOf(schema, value, path, refs);
    }
    for (let i = 0; i < value.length; i++) {
      const p = problemAt(schema.items, value[i], `${path}[${i}]`, refs) as Generic | null;
      // An item without a sentence of its own is the list's problem: the list's sentence names the list.
      if (p) return p.generic && typeof schema.error === "string" ? sentenceOf(schema, value, path, refs) : p;
    }
  }
  return sentenceOf(schema, value, path, refs);
}

/** The first problem of a body against its model, or null when the body fits. */
export function bodyProblem(schema: TSchema, body: unknown): BodyProblem | null {
  return problemAt(schema as Node, body, "");
}

/** Refuses a problem: `400 invalid_body` naming its field, or the code its schema names. */
export function refuse(p: BodyProblem): never {
  // A bare sentence of interface.md (`Invalid credentials`) is the whole body: no field beside it.
  if (p.code) fail(p.code, { message: p.message, extra: (CATALOGUE[p.code] as CatalogueEntry).bare ? undefined : { [p.key ?? "field"]: p.field } });
  badField(p.field, p.message);
}

/** Refuses a value that does not fit `schema`, naming `field`. */
export function checkValue<T extends TSchema>(schema: T, value: unknown, field: string): asserts value is Static<T> {
  const p = problemAt(schema as Node, value, field);
  if (p) refuse(p);
}
