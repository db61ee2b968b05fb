// Preview tokens: `pvw_...` secrets (stored hashed) that let a production read see drafts of the
// entries or the model they cover, for a limited time.
import type { Static } from "@sinclair/typebox";
import type { PreviewTokenBody } from "../entries/bodies.ts";
import { eq } from "drizzle-orm";
import { previewTokens } from "../../storage/project/schema.ts";
import { badField } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import { randomToken, sha256Hex } from "../../infra/crypto.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { findModel } from "../models/catalog.ts";

const HOUR_S = 3600;

/** Mints a preview token: `{ entryIds?, model?, expiresIn? }` (seconds, default 1 h, at most 7 days). */
export function mintPreviewToken(s: Services, h: ProjectHandle, actor: string, body: Static<typeof PreviewTokenBody>) {
  const entryIds = body.entryIds ? [...new Set(body.entryIds.map((x) => x.toLowerCase()))] : null;
  let modelId: string | null = null;
  if (body.model !== undefined && body.model !== null) {
    const m = findModel(h, body.model);
    if (!m) badField("model", "model names no model of this project");
    modelId = m.id;
  }
  if (!entryIds && !modelId) badField("entryIds", "send entryIds, model or both");
  // 60 s to 7 days (the body's model); an hour when not sent.
  const expiresIn = body.expiresIn ?? HOUR_S;
  const token = `pvw_${randomToken(32)}`;
  const expiresAt = iso(s.clock.now() + expiresIn * 1000);
  h.db
    .insert(previewTokens)
    .values({
      id: s.ids.uuid(),
      tokenHash: sha256Hex(token),
      entryIds: entryIds ? JSON.stringify(entryIds) : null,
      modelId,
      expiresAt,
      createdAt: iso(s.clock.now()),
      createdBy: actor,
    })
    .run();
  return { token, expiresAt };
}

export interface PreviewGrant {
  entryIds: string[] | null;
  modelId: string | null;
  expiresAt: string;
}

/** The grant of a token, or null when unknown or expired. */
export function checkPreviewToken(s: Services, h: ProjectHandle, token: string): PreviewGrant | null {
  if (!token.startsWith("pvw_") || token.length > 100) return null;
  const r = h.db
    .select()
    .from(previewTokens)
    .where(eq(previewTokens.tokenHash, sha256Hex(token)))
    .get();
  if (!r || Date.parse(r.expiresAt) <= s.clock.now()) return null;
  return { entryIds: r.entryIds ? JSON.parse(r.entryIds) : null, modelId: r.modelId, expiresAt: r.expiresAt };
}
