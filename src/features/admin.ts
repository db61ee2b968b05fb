// The admin app: its built assets under /admin/ and the redirect of browsers from / (decisions.md
// section 11). The app speaks only the public /v2 API; the one page of its own is the preview
// pane's frame (http/admin-preview.ts), which needs the services to check a preview token.
import { adminRoutes } from "../http/admin.ts";
import type { Feature } from "./feature.ts";

export const admin: Feature = ({ s }) => ({ routes: adminRoutes({ s }) });
