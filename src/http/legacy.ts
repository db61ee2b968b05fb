// Legacy surfaces (/v2/api, /v3/api, /v2/schema, /v2/seo, /files): legacy keys only. A scoped or
// unknown key gets the same `401 { error: "Invalid API key" }`. Entry lists run like every other
// entries read: on the read pool, under the in-flight limits.
import { Elysia } from "elysia";
import { fail } from "../errors.ts";
import type { Services } from "../services.ts";
import { allModels, modelRecord } from "../domain/models/catalog.ts";
import { runLimitedRead } from "../domain/reads/gateway.ts";
import { listArgsOf } from "../domain/reads/args.ts";
import type { ReadJob } from "../domain/reads/job.ts";
import { readModel } from "../domain/reads/query.ts";
import { readerOf } from "../domain/reads/job.ts";
import { PUBLISHED } from "../domain/reads/names.ts";
import type { AuthKey } from "../domain/keys/auth.ts";
import { keyedAuth } from "./plugins/keyed.ts";
import { clientIp } from "./context.ts";

export function legacyRoutes(s: Services) {
  const notYet = () => fail("not_found", { message: "This legacy surface has nothing here yet." });
  // Legacy entry lists: the read grammar of /api/entries, answered as { data }.
  const listLegacy = async (key: AuthKey, ns: string, request: Request, ip: string) => {
    readModel(s.projects.get(key.row.projectId), readerOf(key.readGrants, PUBLISHED), ns);
    const job: ReadJob = {
      projectId: key.row.projectId,
      ns,
      args: listArgsOf(new URL(request.url).searchParams),
      production: key.row.environment === "production",
      preview: null,
      grants: key.readGrants,
    };
    const result = await runLimitedRead(s, job, key.row.id, ip);
    return new Response(`{"data":${result.dataJson}}`, { headers: { "content-type": "application/json" } });
  };
  return new Elysia()
    .use(keyedAuth(s))
    .get("/v2/schema", ({ key }) => ({ data: allModels(s.projects.get(key.row.projectId)).list.map(modelRecord) }), { legacy: true })
    .get("/v2/api/:ns", ({ key, params, request, server }) => listLegacy(key, params.ns, request, clientIp(server, request)), { legacy: true })
    .get("/v3/api/:ns", ({ key, params, request, server }) => listLegacy(key, params.ns, request, clientIp(server, request)), { legacy: true })
    .get("/v2/api/*", notYet, { legacy: true })
    .get("/v3/api/*", notYet, { legacy: true })
    .get("/v2/seo", notYet, { legacy: true })
    .get("/v2/seo/*", notYet, { legacy: true })
    .get("/files", notYet, { legacy: true })
    .get("/files/*", notYet, { legacy: true });
}
