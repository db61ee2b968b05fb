// The OpenAPI documents (decisions.md 12): GET /v2/openapi.json (no key, from the app's route
// table) and GET /api/openapi.json (a key's readable models; cached per key grants and model set).
import { managementOpenApiRoutes } from "../http/v2/openapi.ts";
import { readOpenApiRoutes } from "../http/api/openapi.ts";
import type { RouteRow } from "../http/openapi/management.ts";
import type { Feature } from "./feature.ts";

export const openapi: Feature = ({ s, routes }) => ({
  routes: readOpenApiRoutes(s),
  management: () => managementOpenApiRoutes(s, routes as () => readonly RouteRow[]),
});
