// Models (and /v2/projects/resolve).
import { modelRoutes } from "../http/v2/models.ts";
import type { Feature } from "./feature.ts";

export const models: Feature = ({ s }) => ({ management: () => modelRoutes(s) });
