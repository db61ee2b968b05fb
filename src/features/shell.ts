// The app's shell on the server (issue 27): the home screen's request, the palette's search, and
// saved views of entry lists (decisions.md 15; views live in the project file).
import { Elysia } from "elysia";
import { shellRoutes } from "../http/v2/shell.ts";
import { viewRoutes } from "../http/v2/views.ts";
import type { Feature } from "./feature.ts";

export const shell: Feature = ({ s }) => ({ management: () => new Elysia().use(shellRoutes(s)).use(viewRoutes(s)) });
