// The admin app: its built assets under /admin/ and the redirect of browsers from / (decisions.md
// section 11). The app speaks only the public /v2 API, so it adds no other route.
import { adminRoutes } from "../http/admin.ts";
import type { Feature } from "./feature.ts";

export const admin: Feature = () => adminRoutes();
