// API keys under management.
import { keyRoutes } from "../http/v2/keys.ts";
import type { Feature } from "./feature.ts";

export const keys: Feature = ({ s }) => ({ management: () => keyRoutes(s) });
