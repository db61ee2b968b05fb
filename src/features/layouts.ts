// Entry layouts on both mounts.
import { layoutRoutes } from "../http/v2/layouts.ts";
import type { Feature } from "./feature.ts";

export const layouts: Feature = ({ s }) => ({ management: () => layoutRoutes(s) });
