// Small pieces the answer models of /v2 share (decisions.md 9: a single record is the bare
// object; a list is `{ data: [...] }`). Answer models document what a route sends; the OpenAPI
// test checks real answers against them.
import { type TObject, type TProperties, type TSchema, Type } from "@sinclair/typebox";

/** A value or null. */
export const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** An ISO 8601 time as the server writes it. */
export const Time = Type.String({ description: "ISO 8601 time." });

/** A UUID. */
export const Uuid = Type.String({ description: "A UUID." });

/** A list answer: `{ data: [...] }` (plus paging keys where a route pages). */
export const listOf = <T extends TSchema>(item: T, extra: TProperties = {}) => Type.Object({ data: Type.Array(item), ...extra });

/** An object whose known keys are named; the server may add others. */
export const record = <P extends TProperties>(props: P, options: { $id?: string; description?: string } = {}): TObject<P> => Type.Object(props, options);
