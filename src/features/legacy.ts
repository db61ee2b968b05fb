// The legacy surfaces for legacy keys.
import { legacyRoutes } from "../http/legacy.ts";
import type { Feature } from "./feature.ts";

export const legacy: Feature = ({ s }) => ({ routes: legacyRoutes(s) });
