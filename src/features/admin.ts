// The admin app: GET /admin/ and its assets, and GET / sending browsers there (src/http/admin.ts).
import { adminRoutes } from "../http/admin.ts";
import type { Feature } from "./feature.ts";

export const admin: Feature = () => adminRoutes();
