// Safe retries: a POST sent with an `Idempotency-Key` header stores its answer for 24 hours.
// The same key with the same request replays that answer without acting again; the same key
// with another request answers 409 idempotency_key_reused. Keys belong to the caller (a person
// or a key), so two callers never see each other's answers. Only successful answers are kept:
// a refused request did nothing, and sending it again (perhaps after fixing what was refused)
// runs it again.
import { and, eq, gt, lte } from "drizzle-orm";
import { idempotencyKeys } from "../../storage/project/schema.ts";
import { badField, fail } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import { sha256Hex } from "../../infra/crypto.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { write } from "../unit-of-work.ts";

/** How long an answer is kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

export interface IdempotentRequest {
  /** `user:<id>` or `api_key:<id>`. */
  principal: string;
  /** The header's value, or null when none was sent. */
  key: string | null;
  method: string;
  path: string;
  body: unknown;
}

export interface Answer {
  status: number;
  body: unknown;
}

/**
 * JSON with object keys sorted at every level, so key order and spacing do not make two bodies
 * differ. Built with an explicit stack, not recursion: a body nested 100,000 levels (it fits in
 * 1 MB) must reach validation and its 400, not overflow the stack here (issue 15 item 4).
 */
function canonical(v: unknown): string {
  const out: string[] = [];
  // Work items, last first: text to emit as it is, or a value to render.
  const stack: (string | { v: unknown })[] = [{ v }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === "string") {
      out.push(item);
      continue;
    }
    const x = item.v;
    const parts: (string | { v: unknown })[] = [];
    if (Array.isArray(x)) {
      parts.push("[");
      for (let i = 0; i < x.length; i++) parts.push(...(i ? [","] : []), { v: x[i] });
      parts.push("]");
    } else if (x !== null && typeof x === "object") {
      parts.push("{");
      const keys = Object.keys(x).sort();
      for (let i = 0; i < keys.length; i++) parts.push(`${i ? "," : ""}${JSON.stringify(keys[i])}:`, { v: (x as Record<string, unknown>)[keys[i]!] });
      parts.push("}");
    } else {
      out.push(JSON.stringify(x) ?? "null");
      continue;
    }
    for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
  }
  return out.join("");
}

function checkKey(key: string): string {
  if (key.length < 1 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    badField("Idempotency-Key", "The Idempotency-Key header must be 1 to 255 visible ASCII characters, e.g. a UUID");
  }
  return key;
}

/**
 * Runs `act` once per key. `act` must be synchronous so that looking the key up, acting and
 * storing the answer cannot interleave with another request for the same key.
 */
export function idempotent(s: Services, h: ProjectHandle, req: IdempotentRequest, act: () => Answer): Answer & { replayed: boolean } {
  if (req.key === null) return { ...act(), replayed: false };
  const key = checkKey(req.key.trim());
  const now = s.clock.now();
  const hash = sha256Hex(`${req.method.toUpperCase()} ${req.path}\n${canonical(req.body)}`);
  const stored = h.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.principal, req.principal), eq(idempotencyKeys.key, key), gt(idempotencyKeys.expiresAt, iso(now))))
    .get();
  if (stored) {
    if (stored.requestHash !== hash) {
      fail("idempotency_key_reused", {
        message: "That Idempotency-Key was used with another request in the last 24 hours.",
        extra: { field: "Idempotency-Key" },
      });
    }
    return { status: stored.status, body: JSON.parse(stored.body), replayed: true };
  }
  // Acting and storing the answer commit together: a crash leaves either both or neither. The
  // act's own writes join this unit, so their cache notices go out after this commit.
  const answer = write(s, h, () => {
    const a = act();
    if (a.status >= 200 && a.status < 300) {
      h.db
        .delete(idempotencyKeys)
        .where(lte(idempotencyKeys.expiresAt, iso(now)))
        .run();
      h.db
        .insert(idempotencyKeys)
        .values({
          principal: req.principal,
          key,
          requestHash: hash,
          status: a.status,
          body: JSON.stringify(a.body),
          createdAt: iso(now),
          expiresAt: iso(now + IDEMPOTENCY_TTL_MS),
        })
        .onConflictDoUpdate({
          target: [idempotencyKeys.principal, idempotencyKeys.key],
          set: { requestHash: hash, status: a.status, body: JSON.stringify(a.body), createdAt: iso(now), expiresAt: iso(now + IDEMPOTENCY_TTL_MS) },
        })
        .run();
    }
    return a;
  });
  return { ...answer, replayed: false };
}
