// Signing per the Standard Webhooks specification (standardwebhooks.com), so any of its
// libraries verifies Capa's events: the signed content is `<id>.<timestamp>.<body>`, the key is
// the base64 part of the `whsec_` secret, and the signature is `v1,<base64 HMAC-SHA256>`.
import { createHmac } from "node:crypto";

export const SECRET_PREFIX = "whsec_";

/** A new signing secret: `whsec_` and the base64 of 32 random bytes. */
export function newSecret(): string {
  return SECRET_PREFIX + crypto.getRandomValues(new Uint8Array(32)).toBase64();
}

/** The part of a secret shown after creation: the prefix and four characters, never enough to sign. */
export function maskSecret(secret: string): string {
  return secret.slice(0, SECRET_PREFIX.length + 4);
}

/** One `v1,<signature>` of the exact body bytes under one secret. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/** The headers of one attempt. Several secrets (a rotation's overlap) give space-separated signatures. */
export function signedHeaders(secrets: string[], id: string, timestampMs: number, body: string): Record<string, string> {
  const ts = Math.floor(timestampMs / 1000);
  return {
    "content-type": "application/json",
    "user-agent": "Capa-Webhooks/1.0",
    "webhook-id": id,
    "webhook-timestamp": String(ts),
    "webhook-signature": secrets.map((s) => signature(s, id, ts, body)).join(" "),
    "idempotency-key": id,
  };
}
