// What the app's shell asks before any screen: GET /v2/server (before sign-in: does the server send
// mail), GET /v2/home (the home screen in one request) and GET /v2/search (the command palette:
// entries and media). People only.
import { Elysia } from "elysia";
import type { Services } from "../../services.ts";
import { badField } from "../../errors.ts";
import { doc } from "./doc.ts";
import { Home } from "../../domain/home/bodies.ts";
import { ServerFacts } from "../../domain/projects/bodies.ts";
import { home } from "../../domain/home/service.ts";
import { SearchAnswer, SearchQuery } from "../../domain/search/bodies.ts";
import { searchEntries, searchMedia } from "../../domain/search/service.ts";
import { holds } from "../../domain/access/principal.ts";
import { MAX_Q } from "../../domain/entries/selection.ts";
import { managementAuth } from "../plugins/management.ts";

export function shellRoutes(s: Services) {
  return new Elysia({ prefix: "/v2" })
    .use(managementAuth(s, "/v2"))
    .get("/server", () => ({ mail: s.mail !== null }), {
      detail: doc({ summary: "What the app needs before sign-in: whether the server sends mail (no authentication)", answers: { 200: ServerFacts } }),
    })
    .get("/home", ({ person }) => home(s, person as Parameters<typeof home>[1]), {
      signedIn: true,
      detail: doc({
        summary: "The home screen: your projects, and in the current one your recent entries, upcoming scheduled actions, failed deliveries and first steps",
        answers: { 200: Home },
      }),
    })
    .get(
      "/search",
      ({ principal, project, query }) => {
        const q = query.q;
        if (typeof q !== "string" || q.trim() === "" || q.length > MAX_Q) badField("q", `q must be a text of 1 to ${MAX_Q} characters`);
        const limit = query.limit === undefined ? 10 : Number(query.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 50) badField("limit", "limit must be a whole number from 1 to 50");
        return {
          entries: searchEntries(project, q, limit),
          media: holds(principal, "media:read") ? searchMedia(s, project, q, limit) : [],
        };
      },
      {
        person: "instance:read",
        detail: doc({
          summary: "Search for the command palette: entries of every model by title, and media by file name, title and alt",
          query: SearchQuery,
          answers: { 200: SearchAnswer },
        }),
      },
    );
}
