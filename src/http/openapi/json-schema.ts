// TypeBox models as the JSON Schema of an OpenAPI 3.1 document (whose schemas are JSON Schema
// 2020-12). A TypeBox schema already is JSON Schema; what changes on the way out:
// - the sentence keywords of our models (`error`, `missing`, `unknown`) are dropped: they are
//   the server's words for a refusal, not part of the schema language;
// - TypeBox's own symbols vanish with the JSON copy;
// - a schema with an `$id` becomes a component of the document, referenced by `$ref` wherever it
//   is used, so a model shared by many routes is printed once under its name.
import type { TSchema } from "@sinclair/typebox";
import { SENTENCE_KEYWORDS } from "../../domain/access/body-check.ts";

export type Json = Record<string, unknown>;

/** Keywords whose value is one schema. */
const ONE = ["items", "not", "additionalProperties", "contains", "if", "then", "else", "propertyNames"];
/** Keywords whose value is a list of schemas. */
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
/** Keywords whose value maps names to schemas. */
const MAP = ["properties", "patternProperties", "$defs"];

/** Collects named schemas as components while rendering; one per document. */
export class Components {
  readonly schemas: Record<string, Json> = {};

  /** The JSON Schema of a TypeBox model, with named parts moved into components. */
  schema(model: TSchema): Json {
    return this.walk(JSON.parse(JSON.stringify(model)) as Json);
  }

  private walk(node: Json): Json {
    for (const k of SENTENCE_KEYWORDS) delete node[k];
    // TypeBox's recursive models refer to themselves by bare $id; in the document, by component.
    if (typeof node.$ref === "string" && !node.$ref.startsWith("#")) node.$ref = `#/components/schemas/${node.$ref}`;
    for (const k of ONE) if (isObject(node[k])) node[k] = this.walk(node[k] as Json);
    for (const k of LIST) if (Array.isArray(node[k])) node[k] = (node[k] as Json[]).map((x) => this.walk(x));
    for (const k of MAP) {
      const m = node[k];
      if (isObject(m)) for (const [name, sub] of Object.entries(m)) if (isObject(sub)) m[name] = this.walk(sub);
    }
    const id = node.$id;
    if (typeof id !== "string") return node;
    delete node.$id;
    const before = this.schemas[id];
    // One name, one schema: two different models under one $id would make the document lie.
    if (before && JSON.stringify(before) !== JSON.stringify(node)) throw new Error(`Two different schemas are named ${id}`);
    this.schemas[id] = node;
    return { $ref: `#/components/schemas/${id}` };
  }
}

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
