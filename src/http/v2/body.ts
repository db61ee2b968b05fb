// Reading /v2 JSON bodies ourselves: one clear error for malformed JSON, a non-object or an
// oversized body, whatever Content-Type the client sent. The size limit is the route's: JSON
// routes keep 1 MB (the default) while an upload route streams far more through its own reader.
import type { Static, TSchema } from "@sinclair/typebox";
import { AppError, fail } from "../../errors.ts";
import { bodyProblem, refuse } from "../../domain/access/body-check.ts";

/** The body limit of JSON routes. */
export const JSON_BODY_LIMIT = 1024 * 1024;

/**
 * Reads a body of at most `limit` bytes: a declared Content-Length over it is refused before
 * anything is read, and a streamed body is cut off as soon as it crosses it.
 */
export async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > limit) fail("payload_too_large");
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let n = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    n += value.byteLength;
    if (n > limit) {
      await reader.cancel().catch(() => {});
      fail("payload_too_large");
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(n);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.byteLength;
  }
  return all;
}

/** Parses the request body as a JSON object (an empty body is `{}`). */
export async function jsonBody(request: Request, limit = JSON_BODY_LIMIT): Promise<Record<string, unknown>> {
  const buf = await readLimited(request, limit);
  if (buf.byteLength === 0) return {};
  let v: unknown;
  try {
    v = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(buf));
  } catch {
    throw new AppError("invalid_json");
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) fail("invalid_json", { message: "The request body must be a JSON object." });
  return v as Record<string, unknown>;
}

/**
 * Parses the body as a JSON object and checks it against the route's TypeBox model (the model
 * the OpenAPI document prints). A body that does not fit is refused with the model's own
 * sentence and the field it names (src/domain/access/body-check.ts).
 */
export async function typedBody<T extends TSchema>(request: Request, schema: T, limit = JSON_BODY_LIMIT): Promise<Static<T>> {
  const body = await jsonBody(request, limit);
  const problem = bodyProblem(schema, body);
  if (problem) refuse(problem);
  return body as Static<T>;
}

/** Room for the multipart framing and the text fields of an upload, beyond its files. */
const UPLOAD_OVERHEAD = 1024 * 1024;

/**
 * The body limit of `POST /v2/media`: every file may reach CAPA_MEDIA_MAX_BYTES (the intake
 * refuses a larger one with file_too_large), at most `maxFiles` of them, plus the framing.
 */
export function uploadBodyLimit(maxBytes: number, maxFiles: number): number {
  return maxBytes * maxFiles + UPLOAD_OVERHEAD;
}
