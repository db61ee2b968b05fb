// GET /api/me: what the key is and what it may touch.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import type { AuthKey } from "../../domain/keys/auth.ts";
import { keyInfo } from "../../domain/keys/info.ts";
import { allModels } from "../../domain/models/catalog.ts";
import { LATEST_VERSION } from "../../domain/versions.ts";
import { keyedAuth } from "../plugins/keyed.ts";

export function meRoutes(s: Services) {
  // The rendered key information per cached key. It changes only with the key record (a new
  // AuthKey object after any edit), the project's model set, the version asked for and lastUsedAt
  // (at most once a minute), so most requests reuse the JSON text.
  const rendered = new WeakMap<AuthKey, { sig: string; json: string }>();
  return new Elysia().use(keyedAuth(s)).get(
    "/api/me",
    ({ call }) => {
      const models = allModels(s.projects.get(call.key.row.projectId));
      const sig = `${call.version}|${call.lastUsedBefore}|${models.version}|${models.list.length}`;
      let hit = rendered.get(call.key);
      if (!hit || hit.sig !== sig) {
        hit = { sig, json: JSON.stringify(keyInfo(s, call.key, call.version, call.lastUsedBefore)) };
        rendered.set(call.key, hit);
      }
      const meta = JSON.stringify({ version: call.version, requestId: call.info.id, contract: 1 });
      return new Response(`{"data":${hit.json},"meta":${meta}}`, {
        status: 200,
        headers: { "content-type": "application/json", "cache-control": "no-store", "svc-version": call.version ?? LATEST_VERSION, ...call.info.headers },
      });
    },
    { key: true },
  );
}
