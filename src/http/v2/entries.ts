// Entries under /v2/model-instances: drafts (saves, autosaves, duplicates, checks), versions,
// usage and delete to the trash (people), publishing now
// (`/:id/publish`, `/:id/unpublish`, `/:id/scheduled`) on both mounts (interface.md, Publishing
// now), and `GET /:id` on the agent mount, where events' `links.self` point.
import { type AnyElysia, Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { Services } from "../../services.ts";
import { typedBody } from "./body.ts";
import { doc } from "./doc.ts";
import {
  CreateEntryBody,
  EntryPage,
  EntryQuery,
  EntryRecord,
  EntryUsage,
  LocaleQuery,
  PublishBody,
  SavedEntry,
  SaveQuery,
  UnpublishBody,
  UpdateEntryBody,
  ValidateBody,
  Validation,
  VersionList,
} from "../../domain/entries/bodies.ts";
import { ColumnsQuery, ExportBody, ListColumns } from "../../domain/entries/list-bodies.ts";
import { ActionList } from "../../domain/scheduling/bodies.ts";
import { entryLocaleOf, localeParam, localesOf } from "../../domain/locales/entry-locale.ts";
import { managementAuth, MOUNTS, once, type Mount } from "../plugins/management.ts";
import { createEntry, getEntry, updateEntry } from "../../domain/entries/service.ts";
import { trashEntry } from "../../domain/entries/trash.ts";
import { duplicateEntry } from "../../domain/entries/duplicate.ts";
import { entryUsage } from "../../domain/entries/usage.ts";
import { validateValues } from "../../domain/entries/validation.ts";
import { badField } from "../../errors.ts";
import { listVersions, restoreVersion } from "../../domain/entries/versions.ts";
import { ifMatchVersion } from "../../domain/entries/conflicts.ts";
import { listEntries } from "../../domain/entries/list.ts";
import { columnsOf } from "../../domain/entries/columns.ts";
import { exportEntries } from "../../domain/entries/export.ts";
import { modelOrFail } from "../../domain/models/catalog.ts";
import { publishEntry, unpublishEntry } from "../../domain/entries/publish.ts";
import { entryActions } from "../../domain/scheduling/queries.ts";

/** `?autosave=true|false` of a save. */
function autosaveOf(query: Record<string, unknown>): boolean {
  const v = query.autosave;
  if (v !== undefined && v !== "true" && v !== "false") badField("autosave", "autosave must be true or false");
  return v === "true";
}

/**
 * The options of `POST .../validate` on both mounts: what the app (and a script) asks before
 * saving or publishing. A new object for each route: Elysia keeps what its macros resolve in the
 * options it is given, so one object shared by two apps in a process would authenticate both
 * against the first.
 */
const validateRoute = () => ({
  scope: "instance:read",
  detail: doc({
    summary: "Check values as a save and a publish would (rules, unique values), writing nothing",
    body: ValidateBody,
    query: LocaleQuery,
    answers: { 200: Validation },
  }),
});

/** Drafts, versions, usage and delete to the trash: people only. */
function drafts(s: Services): AnyElysia {
  return new Elysia({ prefix: "/v2/model-instances" })
    .use(managementAuth(s, "/v2"))
    .get("/", ({ project, query, request }) => listEntries(s, project, query, entryLocaleOf(project, localeParam(request))), {
      scope: "instance:read",
      detail: doc({ summary: "Entries with drafts, filtered, searched and paged", query: EntryQuery, answers: { 200: EntryPage } }),
    })
    .post(
      "/",
      async ({ project, actor, request, set }) => {
        const loc = entryLocaleOf(project, localeParam(request));
        const e = createEntry(s, project, actor, await typedBody(request, CreateEntryBody), loc);
        set.status = 201;
        return e;
      },
      {
        scope: "instance:create",
        detail: doc({
          summary: "Create a draft entry (localized fields in ?locale=)",
          body: CreateEntryBody,
          query: LocaleQuery,
          answers: { 201: EntryRecord },
        }),
      },
    )
    .post(
      "/validate",
      async ({ project, request }) => validateValues(project, await typedBody(request, ValidateBody), entryLocaleOf(project, localeParam(request))),
      validateRoute(),
    )
    .get(
      "/columns",
      ({ project, query }) => {
        const m = modelOrFail(project, query.model);
        return { model: m.namespace, modelId: m.id, columns: columnsOf(m) };
      },
      {
        scope: "instance:read",
        detail: doc({
          summary: "The columns of a model's entry list: its fields and the system columns, with sorting and the where operators of each",
          query: ColumnsQuery,
          answers: { 200: ListColumns },
        }),
      },
    )
    .post(
      "/export",
      async ({ project, request }) => {
        const loc = entryLocaleOf(project, localeParam(request));
        const out = exportEntries(s, project, await typedBody(request, ExportBody), loc);
        return new Response(out.body, {
          headers: {
            "content-type": out.contentType,
            "content-disposition": `attachment; filename="${out.filename}"`,
            "x-capa-total": String(out.total),
            "cache-control": "no-store",
          },
        });
      },
      {
        scope: "instance:read",
        detail: doc({
          summary:
            "Export a selection (instanceIds, or where, q and status as the list selects) as CSV or JSON, streamed, with the chosen columns (localized fields in ?locale=)",
          body: ExportBody,
          query: LocaleQuery,
          produces: ["text/csv", "application/json"],
          answers: { 200: Type.String({ description: "CSV (a header row of column labels) or a JSON list of objects keyed by column." }) },
        }),
      },
    )
    .get("/:id", ({ project, params, request }) => getEntry(project, params.id, entryLocaleOf(project, localeParam(request))), {
      scope: "instance:read",
      detail: doc({ summary: "One entry: its draft and published copies (localized fields in ?locale=)", query: LocaleQuery, answers: { 200: EntryRecord } }),
    })
    .patch(
      "/:id",
      async ({ project, actor, request, params, query }) =>
        updateEntry(s, project, actor, params.id, await typedBody(request, UpdateEntryBody), ifMatchVersion(request.headers.get("if-match")), {
          autosave: autosaveOf(query),
          locale: entryLocaleOf(project, localeParam(request)),
        }),
      {
        scope: "instance:update",
        detail: doc({
          summary:
            "Save the draft: a new version, none when nothing changed, or (?autosave=true) your recent autosave replaced (If-Match: <version> refuses a stale edit)",
          body: UpdateEntryBody,
          query: SaveQuery,
          answers: { 200: SavedEntry },
        }),
      },
    )
    .delete(
      "/:id",
      ({ project, actor, params, set }) => {
        trashEntry(s, project, actor, params.id);
        set.status = 204;
        return null;
      },
      { scope: "instance:delete", detail: doc({ summary: "Move an entry to the trash (GET /v2/trash)", answers: { 204: null } }) },
    )
    .post(
      "/:id/duplicate",
      ({ project, actor, params, request, set }) => {
        const e = duplicateEntry(s, project, actor, params.id, entryLocaleOf(project, localeParam(request)));
        set.status = 201;
        return e;
      },
      {
        scope: "instance:create",
        detail: doc({
          summary: "A new draft with the entry's values and tags in every locale (unique values emptied, slugs made unique)",
          query: LocaleQuery,
          answers: { 201: EntryRecord },
        }),
      },
    )
    .get("/:id/usage", ({ project, params }) => entryUsage(project, params.id), {
      scope: "instance:read",
      detail: doc({ summary: "The entries whose draft or published copy relates to this entry", answers: { 200: EntryUsage } }),
    })
    .get("/:id/versions", ({ project, params, request }) => ({ data: listVersions(project, params.id, entryLocaleOf(project, localeParam(request))) }), {
      scope: "instance:read",
      detail: doc({
        summary: "The entry's versions, newest first (each keeps every locale's values; shown in ?locale=)",
        query: LocaleQuery,
        answers: { 200: VersionList },
      }),
    })
    .post(
      "/:id/versions/:versionId/restore",
      ({ project, actor, request, params }) =>
        restoreVersion(
          s,
          project,
          actor,
          params.id,
          params.versionId,
          ifMatchVersion(request.headers.get("if-match")),
          entryLocaleOf(project, localeParam(request)),
        ),
      {
        scope: "instance:update",
        detail: doc({ summary: "Make an old version the latest draft again (every locale's values)", query: LocaleQuery, answers: { 200: EntryRecord } }),
      },
    );
}

/** Publishing now, on one mount. */
function publishing(s: Services, mount: Mount): AnyElysia {
  return new Elysia({ prefix: `${mount}/model-instances` })
    .use(managementAuth(s, mount))
    .post(
      "/:id/publish",
      async ({ principal, project, actor, request, params, set }) => {
        const body = await typedBody(request, PublishBody);
        const expected = ifMatchVersion(request.headers.get("if-match"));
        const locale = entryLocaleOf(project, localeParam(request));
        const locales = localesOf(project, body.locales);
        return once(s, project, principal, request, body, set, () => ({
          status: 200,
          body: publishEntry(s, project, actor, params.id, body.versionId, { expected, locales, locale }),
        }));
      },
      {
        scope: "instance:publish",
        detail: doc({
          summary: "Publish the latest draft, or the version named; an entry with localized fields in the locales named (shared fields go live with any)",
          body: PublishBody,
          query: LocaleQuery,
          answers: { 200: EntryRecord },
        }),
      },
    )
    .post(
      "/:id/unpublish",
      async ({ principal, project, actor, request, params, set }) => {
        const body = await typedBody(request, UnpublishBody);
        const locale = entryLocaleOf(project, localeParam(request));
        const locales = localesOf(project, body.locales as string[] | null | undefined);
        return once(s, project, principal, request, body, set, () => ({
          status: 200,
          body: unpublishEntry(s, project, actor, params.id, { locales, locale }),
        }));
      },
      {
        scope: "instance:publish",
        detail: doc({
          summary: "Remove the published copy (or, for an entry with localized fields, the locales named); the draft stays",
          body: UnpublishBody,
          query: LocaleQuery,
          answers: { 200: EntryRecord },
        }),
      },
    )
    .get(
      "/:id/scheduled",
      ({ project, params }) => {
        const e = getEntry(project, params.id);
        return entryActions(project, { id: e.id, modelId: e.modelId });
      },
      { scope: "instance:read", detail: doc({ summary: "The entry's pending and running scheduled actions", answers: { 200: ActionList } }) },
    );
}

/**
 * One entry for a key on the agent mount: the resource an event's `links.self` names
 * (interface.md, Events), so a webhook consumer holding an agent key can follow it.
 */
function agentEntry(s: Services): AnyElysia {
  return new Elysia({ prefix: "/v2/agent/model-instances" })
    .use(managementAuth(s, "/v2/agent"))
    .post(
      "/validate",
      async ({ project, request }) => validateValues(project, await typedBody(request, ValidateBody), entryLocaleOf(project, localeParam(request))),
      validateRoute(),
    )
    .get("/:id", ({ project, params, request }) => getEntry(project, params.id, entryLocaleOf(project, localeParam(request))), {
      scope: "instance:read",
      detail: doc({ summary: "One entry (where events' links.self point)", query: LocaleQuery, answers: { 200: EntryRecord } }),
    });
}

/** Every entry route: drafts for people, publishing now on both mounts, one entry for keys. */
export function entryRoutes(s: Services): AnyElysia {
  const app = new Elysia().use(drafts(s));
  for (const m of MOUNTS) app.use(publishing(s, m));
  return app.use(agentEntry(s));
}
