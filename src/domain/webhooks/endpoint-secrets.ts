// Webhook signing secrets at rest (docs/security.md, "Where secrets live"): sealed with the data
// directory's key, the display prefix kept in the clear beside the sealed value; and which of an
// endpoint's secrets sign at a given time (a rotation's overlap).
import { eq } from "drizzle-orm";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { webhookEndpoints } from "../../storage/project/schema.ts";
import { SecretBox } from "../../infra/secret-box.ts";
import { maskSecret } from "./signing.ts";
import { write } from "../unit-of-work.ts";

/** The kind a webhook secret is sealed for (the associated data of its encryption). */
export const SECRET_KIND = "webhook-secret";

/** A signing secret as stored: sealed, with its display prefix kept in the clear. */
export function sealedSecret(s: Services, secret: string): string {
  return s.secretBox.seal(secret, SECRET_KIND, maskSecret(secret));
}

/**
 * Seals the secrets an older version stored in the clear; the sender runs it once per project
 * and process. The values and their meaning do not change, only how they are kept.
 */
export function sealClearSecrets(s: Services, h: ProjectHandle): number {
  const rows = h.sqlite
    .query(
      "SELECT id, secret, previous_secret AS previousSecret FROM webhook_endpoints WHERE secret NOT LIKE 'sealed:%' OR previous_secret NOT LIKE 'sealed:%'",
    )
    .all() as { id: string; secret: string; previousSecret: string | null }[];
  if (rows.length === 0) return 0;
  const seal = (v: string | null) => (v === null || SecretBox.isSealed(v) ? v : sealedSecret(s, v));
  write(s, h, () => {
    for (const r of rows) {
      h.db
        .update(webhookEndpoints)
        .set({ secret: seal(r.secret)!, previousSecret: seal(r.previousSecret) })
        .where(eq(webhookEndpoints.id, r.id))
        .run();
    }
  });
  return rows.length;
}

/** The secrets (as stored, sealed) that sign an attempt made at `now`: the current one, then the previous one during its overlap. */
export function signingSecrets(
  row: Pick<typeof webhookEndpoints.$inferSelect, "secret" | "previousSecret" | "previousSecretExpiresAt">,
  now: number,
): string[] {
  const out = [row.secret];
  if (row.previousSecret && row.previousSecretExpiresAt && Date.parse(row.previousSecretExpiresAt) > now) out.push(row.previousSecret);
  return out;
}
