// Reading /v2 JSON bodies ourselves: one clear error for malformed JSON, a non-object or an
// oversized body, whatever Content-Type the client sent.
import { AppError, fail } from "../../errors.ts";

const MAX = 1024 * 1024;

/** Parses the request body as a JSON object (an empty body is `{}`). */
export async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  const buf = await request.arrayBuffer();
  if (buf.byteLength > MAX) fail("payload_too_large");
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
