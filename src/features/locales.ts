// A project's locales (decisions.md 13): GET and PUT /v2/locales.
import { localeRoutes } from "../http/v2/locales.ts";
import type { Feature } from "./feature.ts";

export const locales: Feature = ({ s }) => ({ management: () => localeRoutes(s) });
