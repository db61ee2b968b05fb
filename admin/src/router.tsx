// The app's routes, one URL per state (design/admin.md, The frame), under /admin. Screens that
// are heavy (the entry editor and its CodeMirror inputs) are split off and loaded when opened.
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet, redirect, type RouteComponent } from "@tanstack/react-router";
import type { EntrySort, EntryStatus } from "./api/types.ts";
import { isSignedIn, restoreSession } from "./api/session.ts";
import { SignIn } from "./screens/sign-in/sign-in.tsx";
import { Shell } from "./screens/shell/shell.tsx";
import { Home } from "./screens/home/home.tsx";
import { EntryList } from "./screens/entries/entry-list.tsx";
import { Placeholder } from "./screens/placeholder/placeholder.tsx";

const rootRoute = createRootRoute({ component: Outlet });

/** The sign-in screen; `redirect` is where to go afterwards. */
export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "sign-in",
  validateSearch: (s: Record<string, unknown>): { redirect?: string } => (typeof s.redirect === "string" ? { redirect: s.redirect } : {}),
  component: SignIn,
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

const homeRoute = createRoute({ getParentRoute: () => appRoute, path: "/", component: Home });

/** The filters of the entry list, kept in the URL. */
export interface ListSearch {
  status?: EntryStatus;
  q?: string;
  sort?: EntrySort;
}

const STATUSES = new Set(["draft", "published", "changed"]);
const SORTS = new Set(["createdAt", "-createdAt", "updatedAt", "-updatedAt"]);

/** The entry list of a model. */
export const listRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "content/$model",
  validateSearch: (s: Record<string, unknown>): ListSearch => ({
    ...(typeof s.status === "string" && STATUSES.has(s.status) ? { status: s.status as EntryStatus } : {}),
    ...(typeof s.q === "string" && s.q !== "" ? { q: s.q } : {}),
    ...(typeof s.sort === "string" && SORTS.has(s.sort) ? { sort: s.sort as EntrySort } : {}),
  }),
  component: EntryList,
});

/** A new entry of a model. */
export const newEntryRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "content/$model/new",
  component: lazyRouteComponent(() => import("./screens/entry/entry-screen.tsx"), "NewEntryScreen"),
});

/** An entry in the editor. */
export const entryRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "content/$model/$entryId",
  component: lazyRouteComponent(() => import("./screens/entry/entry-screen.tsx"), "EntryScreen"),
});

/** The screens reached from the rail's foot; placeholders until their issues are built. */
const SCREENS = [
  ["models", "Models"],
  ["media", "Media"],
  ["keys", "API keys"],
  ["webhooks", "Webhooks"],
  ["people", "People"],
  ["settings", "Settings"],
] as const;

/** The screens built so far (issue 14), each its own chunk loaded when first opened. */
const BUILT: Partial<Record<(typeof SCREENS)[number][0], RouteComponent>> = {
  models: lazyRouteComponent(() => import("./screens/models/models-screen.tsx"), "ModelsScreen"),
  keys: lazyRouteComponent(() => import("./screens/keys/keys-screen.tsx"), "KeysScreen"),
  webhooks: lazyRouteComponent(() => import("./screens/webhooks/webhooks-screen.tsx"), "WebhooksScreen"),
  people: lazyRouteComponent(() => import("./screens/people/people-screen.tsx"), "PeopleScreen"),
  settings: lazyRouteComponent(() => import("./screens/settings/settings-screen.tsx"), "SettingsScreen"),
};

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

/** The signed-in person's own name and password (issue 14 item 7). */
const profileRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "profile",
  component: lazyRouteComponent(() => import("./screens/profile/profile-screen.tsx"), "ProfileScreen"),
});

const screenRoutes = SCREENS.map(([path, title]) =>
  createRoute({ getParentRoute: () => appRoute, path, component: BUILT[path] ?? (() => <Placeholder title={title} />) }),
);

const routeTree = rootRoute.addChildren([
  signInRoute,
  inviteRoute,
  appRoute.addChildren([homeRoute, listRoute, newEntryRoute, entryRoute, ...screenRoutes, webhookRoute, modelRoute, scheduledRoute, batchRoute, profileRoute]),
]);

/** The router, mounted under /admin. */
export const router = createRouter({ routeTree, basepath: "/admin", defaultPreload: false, scrollRestoration: false });

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}

/** The links of the rail's foot: path and the word on the link (decisions.md 11). */
export const SCREEN_LINKS = [["scheduled", "Scheduled"] as const, ...SCREENS];
