// Small pieces the answer models of /v2 share (decisions.md 9: a single record is the bare
// object; a list is `{ data: [...] }`). Answer models document what a route sends; the OpenAPI
// test checks real answers against them.
import { type TObject, type TProperties, type TSchema, type TUnsafe, Type } from "@sinclair/typebox";

/** A value or null. */
export const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** An ISO 8601 time as the server writes it. */
export const Time = Type.String({ description: "ISO 8601 time." });

/** A UUID. */
export const Uuid = Type.String({ description: "A UUID." });

/** The pattern a body's UUID field is checked with (either case). */
export const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/** A list answer: `{ data: [...] }` (plus paging keys where a route pages). */
export const listOf = <T extends TSchema, E extends TProperties = Record<never, never>>(item: T, extra: E = {} as E) =>
  Type.Object({ data: Type.Array(item), ...extra });

/** An object whose known keys are named; the server may add others. */
export const record = <P extends TProperties>(props: P, options: { $id?: string; description?: string } = {}): TObject<P> => Type.Object(props, options);

/**
 * One of some words: printed as `{ type: "string", enum: [...] }` as before, typed as the union
 * of the words, so the admin app's types (src/shared/) say `"draft" | "published"`, not `string`.
 * TypeBox's check reads it as a string (it does not check `enum`).
 */
export const oneOf = <const V extends readonly string[]>(words: V, options: { description?: string } = {}): TUnsafe<V[number]> =>
  Type.Unsafe<V[number]>(Type.String({ enum: [...words], ...options }));

/**
 * Values keyed by name (an entry's field values, a filter): any object, printed as `{ type:
 * "object" }` as before, typed as a record of unknowns rather than TypeBox's `{}`. A body's model
 * may carry its refusal sentence (`error`, src/domain/access/body-check.ts).
 */
export const keyed = (options: { description?: string; error?: string } = {}): TUnsafe<Record<string, unknown>> =>
  Type.Unsafe<Record<string, unknown>>(Type.Object({}, options));
