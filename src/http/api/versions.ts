// GET /api/versions: the dated versions, no key needed.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { fail } from "../../errors.ts";
import { isVersion, LATEST_VERSION, VERSIONS } from "../../domain/versions.ts";
import { apiOk, apiPreamble } from "../plugins/keyed.ts";

export function versionRoutes(s: Services) {
  return new Elysia().get("/api/versions", ({ request, query }) => {
    // Set first, so a refused Svc-Version answers with the same Vary.
    s.requests.of(request).headers.vary = "Origin, Svc-Version, Accept-Encoding";
    const { info } = apiPreamble(s, request);
    let list = VERSIONS;
    if (query.from !== undefined) {
      if (!isVersion(query.from)) fail("invalid_version", { param: "from", hint: `Supported versions: ${VERSIONS.map((v) => v.date).join(", ")}.` });
      list = VERSIONS.filter((v) => v.date > query.from!);
    }
    info.version ??= LATEST_VERSION;
    return apiOk(info, { current: LATEST_VERSION, versions: list }, "public, max-age=300", undefined, false);
  });
}
