// Legacy surfaces (/v2/api, /v3/api, /v2/schema, /v2/seo, /files): legacy keys only. A scoped or
// unknown key gets the same `401 { error: "Invalid API key" }`.
import { Elysia } from "elysia";
import { fail } from "../errors.ts";
import type { Services } from "../services.ts";
import type { KeyAuth } from "../domain/keys/auth.ts";
import type { AuthKey } from "../domain/keys/service.ts";
import { allModels, modelRecord } from "../domain/models/service.ts";
import { readList } from "../domain/reads/query.ts";
import { readerOf } from "./api/entries.ts";

/** Authenticates a legacy key from x-api-key. */
export function legacyKey(_s: Services, keys: KeyAuth, request: Request): AuthKey {
  const secret = request.headers.get("x-api-key");
  if (!secret) fail("invalid_api_key");
  const check = keys.check(secret.trim());
  if (!check.ok || check.key.row.family !== "legacy" || !check.key.subscriptionActive) fail("invalid_api_key");
  keys.touch(check.key, request.headers.get("origin"));
  return check.key;
}

export function legacyRoutes(s: Services, keys: KeyAuth) {
  const notYet = ({ request }: { request: Request }) => {
    legacyKey(s, keys, request);
    return fail("not_found", { message: "This legacy surface has nothing here yet." });
  };
  const listLegacy = (request: Request, ns: string) => {
    const key = legacyKey(s, keys, request);
    const result = readList(s.projects.get(key.row.projectId), readerOf(key), ns, new URL(request.url).searchParams);
    return { data: result.data };
  };
  return (
    new Elysia()
      .get("/v2/schema", ({ request }) => {
        const key = legacyKey(s, keys, request);
        return { data: allModels(s.projects.get(key.row.projectId)).list.map(modelRecord) };
      })
      // Legacy entry lists: the read grammar of /api/entries, answered as { data }.
      .get("/v2/api/:ns", ({ request, params }) => listLegacy(request, params.ns))
      .get("/v3/api/:ns", ({ request, params }) => listLegacy(request, params.ns))
      .get("/v2/api/*", notYet)
      .get("/v3/api/*", notYet)
      .get("/v2/seo", notYet)
      .get("/v2/seo/*", notYet)
      .get("/files", notYet)
      .get("/files/*", notYet)
  );
}
