// TypeBox models of /v2 request bodies that need no more than a shape check: the single source
// of their types, and of the sentence a refusal gives (`error`), so the answer is the same
// `400 { error, code: "invalid_body", field }` the domain's own checks give. Plain TypeBox, not
// Elysia's `t`: its numbers also accept numeric strings (meant for query strings), while a JSON
// body must send a number.
import { Type } from "@sinclair/typebox";

/** `graceHours` of a key or webhook secret rotation: 0 to 168, default 24. */
const graceHours = Type.Optional(Type.Integer({ minimum: 0, maximum: 168, error: "graceHours must be a whole number from 0 to 168" }));

/** POST /v2/tenants/api-keys/:id/rotate and POST /v2/webhooks/:id/rotate-secret. */
export const RotateBody = Type.Object({ graceHours }, { $id: "RotateBody" });

/** PATCH /v2/tenants/api-keys/:id/active. */
export const ActiveBody = Type.Object({ active: Type.Boolean({ error: "active must be true or false" }) }, { $id: "ActiveBody" });
