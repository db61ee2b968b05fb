// Saved views of entry lists (decisions.md 15): routes only; views live in the project file.
import { viewRoutes } from "../http/v2/views.ts";
import type { Feature } from "./feature.ts";

export const views: Feature = ({ s }) => viewRoutes(s);
