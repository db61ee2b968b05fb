// GET /api/me: what the key is and what it may touch.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import type { KeyAuth } from "../../domain/keys/auth.ts";
import { keyInfo } from "../../domain/keys/info.ts";
import { apiAuth, apiOk } from "./shell.ts";

export function meRoutes(s: Services, keys: KeyAuth) {
  return new Elysia().get("/api/me", ({ request }) => {
    const call = apiAuth(s, keys, request);
    return apiOk(call.info, keyInfo(s, call.key, call.version, call.lastUsedBefore), "no-store");
  });
}
