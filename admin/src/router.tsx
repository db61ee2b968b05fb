// The app's routes, one URL per state (design/admin.md, The frame), under /admin. Screens that
// are heavy (the entry editor and its CodeMirror inputs) are split off and loaded when opened.
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet, redirect, type RouteComponent } from "@tanstack/react-router";
import { KIND_WORDS, MEDIA_SORTS, type MediaKind, type MediaSort } from "./api/types.ts";
import { isSignedIn, restoreSession } from "./api/session.ts";
import { SignIn } from "./screens/sign-in/sign-in.tsx";
import { Shell } from "./screens/shell/shell.tsx";
import type { SCREENS } from "./screens/shell/screens.ts";
import { parseListSearch } from "./screens/entries/list-state.ts";
import { KEY_SORTS, MEMBER_SORTS, parseSmallListSearch, WEBHOOK_SORTS } from "./ui/small-list-search.ts";

const rootRoute = createRootRoute({ component: Outlet });

/** The sign-in screen; `redirect` is where to go afterwards. */
export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "sign-in",
  validateSearch: (s: Record<string, unknown>): { redirect?: string } => (typeof s.redirect === "string" ? { redirect: s.redirect } : {}),
  component: SignIn,
});

/** Asking for a password reset link by mail (shown only when the server sends mail). */
const forgotRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "forgot-password",
  component: lazyRouteComponent(() => import("./screens/sign-in/password-reset.tsx"), "ForgotPassword"),
});

/** The page a reset link opens: a new password for the account. */
const resetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "reset-password",
  validateSearch: (s: Record<string, unknown>): { token?: string } => (typeof s.token === "string" ? { token: s.token } : {}),
  component: lazyRouteComponent(() => import("./screens/sign-in/password-reset.tsx"), "ResetPassword"),
});

/** Everything behind sign-in, inside the shell (rail plus main area). */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "app",
  beforeLoad: async ({ location }) => {
    // A reload resumes the session from its cookie; without one, the sign-in screen.
    if (!isSignedIn() && !(await restoreSession())) throw redirect({ to: "/sign-in", search: { redirect: location.href } });
  },
  component: Shell,
});

/** The home screen: projects, recent entries, what is scheduled and failing, first steps. */
const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/",
  component: lazyRouteComponent(() => import("./screens/home/home.tsx"), "Home"),
});

/** The entry list of a model; its whole state is in the URL (screens/entries/list-state.ts). */
export const listRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "content/$model",
  validateSearch: parseListSearch,
  component: lazyRouteComponent(() => import("./screens/entries/entry-list.tsx"), "EntryList"),
});

/** A new entry of a model. */
export const newEntryRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "content/$model/new",
  component: lazyRouteComponent(() => import("./screens/entry/entry-screen.tsx"), "NewEntryScreen"),
});

/** The locale an entry is edited in and the locale shown beside it (issue 28), kept in the URL. */
export interface EntrySearch {
  locale?: string;
  compare?: string;
}

const CODE = /^[A-Za-z0-9-]{1,35}$/;

/** An entry in the editor. */
export const entryRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "content/$model/$entryId",
  validateSearch: (s: Record<string, unknown>): EntrySearch => ({
    ...(typeof s.locale === "string" && CODE.test(s.locale) ? { locale: s.locale } : {}),
    ...(typeof s.compare === "string" && CODE.test(s.compare) ? { compare: s.compare } : {}),
  }),
  component: lazyRouteComponent(() => import("./screens/entry/entry-screen.tsx"), "EntryScreen"),
});

/** The screens without filters in the URL (issue 14), each its own chunk loaded when first opened. */
const PLAIN: Record<Exclude<(typeof SCREENS)[number][0], "media" | keyof typeof LISTED>, RouteComponent> = {
  models: lazyRouteComponent(() => import("./screens/models/models-screen.tsx"), "ModelsScreen"),
  workspaces: lazyRouteComponent(() => import("./screens/workspaces/workspaces-screen.tsx"), "WorkspacesScreen"),
  settings: lazyRouteComponent(() => import("./screens/settings/settings-screen.tsx"), "SettingsScreen"),
};

/** The screens whose small lists keep their search and sort in the URL (ui/small-list.tsx), with the sorts each has. */
const LISTED = {
  keys: { sorts: KEY_SORTS, component: lazyRouteComponent(() => import("./screens/keys/keys-screen.tsx"), "KeysScreen") },
  webhooks: { sorts: WEBHOOK_SORTS, component: lazyRouteComponent(() => import("./screens/webhooks/webhooks-screen.tsx"), "WebhooksScreen") },
  people: { sorts: MEMBER_SORTS, component: lazyRouteComponent(() => import("./screens/people/people-screen.tsx"), "PeopleScreen") },
};

const keysRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "keys",
  validateSearch: parseSmallListSearch(LISTED.keys.sorts),
  component: LISTED.keys.component,
});
const webhooksRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "webhooks",
  validateSearch: parseSmallListSearch(LISTED.webhooks.sorts),
  component: LISTED.webhooks.component,
});
const peopleRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "people",
  validateSearch: parseSmallListSearch(LISTED.people.sorts),
  component: LISTED.people.component,
});

/** How the library shows its files. */
export type MediaView = "grid" | "list";

/**
 * The library's state in the URL: a folder (`none`: the files in no folder; absent: every file),
 * a kind, the search text, the order (absent: newest first), the page size (absent: 40) and the
 * view (absent: the view last chosen in this browser).
 */
export interface MediaSearch {
  folder?: string;
  kind?: MediaKind;
  q?: string;
  sort?: MediaSort;
  /** Files a page (absent: 40). */
  limit?: 100;
  view?: MediaView;
}

const MEDIA_KINDS = new Set<string>(Object.keys(KIND_WORDS));

/** The media library. */
export const mediaRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "media",
  validateSearch: (s: Record<string, unknown>): MediaSearch => ({
    ...(typeof s.folder === "string" && s.folder !== "" ? { folder: s.folder } : {}),
    ...(typeof s.kind === "string" && MEDIA_KINDS.has(s.kind) ? { kind: s.kind as MediaKind } : {}),
    ...(typeof s.q === "string" && s.q !== "" ? { q: s.q } : {}),
    ...(typeof s.sort === "string" && s.sort !== "-createdAt" && (MEDIA_SORTS as readonly string[]).includes(s.sort) ? { sort: s.sort as MediaSort } : {}),
    ...(Number(s.limit) === 100 ? { limit: 100 as const } : {}),
    ...(s.view === "grid" || s.view === "list" ? { view: s.view } : {}),
  }),
  component: lazyRouteComponent(() => import("./screens/media/media-screen.tsx"), "MediaScreen"),
});

/** One file of the library in its record editor. */
const mediaFileRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "media/$mediaId",
  component: lazyRouteComponent(() => import("./screens/media/media-file-screen.tsx"), "MediaFileScreen"),
});

/** The page an invitation link opens; outside the shell, signed in or not. */
export const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "invite",
  validateSearch: (s: Record<string, unknown>): { token?: string } => (typeof s.token === "string" ? { token: s.token } : {}),
  component: lazyRouteComponent(() => import("./screens/invite/accept-invite.tsx"), "AcceptInvite"),
});

/** One model with its fields. */
const modelRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "models/$modelId",
  component: lazyRouteComponent(() => import("./screens/models/model-screen.tsx"), "ModelScreen"),
});

/** One workspace: its details, its arrangement editor and its members. */
const workspaceRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "workspaces/$workspaceId",
  component: lazyRouteComponent(() => import("./screens/workspaces/workspace-screen.tsx"), "WorkspaceScreen"),
});

/** The entry layout editor of one model, with its live preview. */
const layoutRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "models/$modelId/layout",
  component: lazyRouteComponent(() => import("./screens/layouts/layout-screen.tsx"), "LayoutScreen"),
});

/** One webhook endpoint with its deliveries log. */
const webhookRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "webhooks/$webhookId",
  component: lazyRouteComponent(() => import("./screens/webhooks/webhook-screen.tsx"), "WebhookScreen"),
});

/** The filters and view of the Scheduled screen, kept in the URL. */
export interface ScheduledSearch {
  view?: "calendar";
  status?: string;
  page?: number;
  month?: string;
}

const ACTION_STATUSES = new Set(["pending", "running", "done", "failed", "dead", "cancelled"]);

/** Every scheduled action of the project: a list or a month calendar (issue 14 item 8). */
const scheduledRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "scheduled",
  validateSearch: (s: Record<string, unknown>): ScheduledSearch => {
    const page = Number(s.page);
    return {
      ...(s.view === "calendar" ? { view: "calendar" as const } : {}),
      ...(typeof s.status === "string" && s.status.split(",").every((x) => ACTION_STATUSES.has(x)) ? { status: s.status } : {}),
      ...(Number.isInteger(page) && page > 1 ? { page } : {}),
      ...(typeof s.month === "string" && /^\d{4}-(0[1-9]|1[0-2])$/.test(s.month) ? { month: s.month } : {}),
    };
  },
  component: lazyRouteComponent(() => import("./screens/scheduled/scheduled-screen.tsx"), "ScheduledScreen"),
});

/** One batch of scheduled actions with its counts per status. */
const batchRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "scheduled/batch/$batchId",
  component: lazyRouteComponent(() => import("./screens/scheduled/batch-screen.tsx"), "BatchScreen"),
});

/** The trash, per model (issue 26 item 8). */
const trashRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "trash",
  validateSearch: (s: Record<string, unknown>): { model?: string } => (typeof s.model === "string" && s.model !== "" ? { model: s.model } : {}),
  component: lazyRouteComponent(() => import("./screens/trash/trash-screen.tsx"), "TrashScreen"),
});

/** The project's locales, under Settings (issue 28 item 8). */
const localesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "settings/locales",
  component: lazyRouteComponent(() => import("./screens/locales/locales-screen.tsx"), "LocalesScreen"),
});

/** The signed-in person's own name and password (issue 14 item 7). */
const profileRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "profile",
  component: lazyRouteComponent(() => import("./screens/profile/profile-screen.tsx"), "ProfileScreen"),
});

const screenRoutes = (Object.keys(PLAIN) as (keyof typeof PLAIN)[]).map((path) =>
  createRoute({ getParentRoute: () => appRoute, path, component: PLAIN[path] }),
);

const routeTree = rootRoute.addChildren([
  signInRoute,
  forgotRoute,
  resetRoute,
  inviteRoute,
  appRoute.addChildren([
    homeRoute,
    listRoute,
    newEntryRoute,
    entryRoute,
    ...screenRoutes,
    keysRoute,
    webhooksRoute,
    peopleRoute,
    mediaRoute,
    mediaFileRoute,
    webhookRoute,
    modelRoute,
    layoutRoute,
    workspaceRoute,
    scheduledRoute,
    batchRoute,
    trashRoute,
    profileRoute,
    localesRoute,
  ]),
]);

/** The router, mounted under /admin. */
export const router = createRouter({ routeTree, basepath: "/admin", defaultPreload: false, scrollRestoration: false });

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
