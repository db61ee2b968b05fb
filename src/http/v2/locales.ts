// The project's locales under /v2/locales (decisions.md 13; docs/localization.md): read with
// model:read on both mounts, replaced by owners and admins (settings:update, never a key).
import { type AnyElysia, Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { badField } from "../../errors.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import { LocalesAnswer, LocalesBody, LocalesQuery } from "../../domain/locales/bodies.ts";
import { managementAuth, MOUNTS, type Mount } from "../plugins/management.ts";
import { getLocales, putLocales } from "../../domain/locales/service.ts";

function localeGroup(s: Services, mount: Mount): AnyElysia {
  const group = new Elysia({ prefix: `${mount}/locales` }).use(managementAuth(s, mount)).get("/", ({ project }) => getLocales(project), {
    scope: "model:read",
    detail: doc({ summary: "The project's locales: the default and each locale's fallback chain", answers: { 200: LocalesAnswer } }),
  });
  if (mount !== "/v2") return group;
  return group.put(
    "/",
    async ({ project, actor, request, query }) => {
      const force = (query as Record<string, unknown>).force;
      if (force !== undefined && force !== "true" && force !== "false") badField("force", "force must be true or false");
      return putLocales(s, project, await typedBody(request, LocalesBody), force === "true", actor);
    },
    {
      person: "settings:update",
      detail: doc({
        summary: "Replace the project's locales (409 locale_in_use when a removed locale holds values, unless force=true)",
        body: LocalesBody,
        query: LocalesQuery,
        answers: { 200: LocalesAnswer },
      }),
    },
  );
}

/** The locales routes on every mount (replacing them on /v2 only). */
export function localeRoutes(s: Services): AnyElysia {
  const app = new Elysia();
  for (const m of MOUNTS) app.use(localeGroup(s, m));
  return app;
}
