// Workspaces: the admin's left rail, on both mounts.
import { workspaceRoutes } from "../http/v2/workspaces.ts";
import type { Feature } from "./feature.ts";

export const workspaces: Feature = ({ s }) => ({ management: () => workspaceRoutes(s) });
