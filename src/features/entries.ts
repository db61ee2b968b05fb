// Entries under management: drafts, versions, publishing now (src/http/v2/entries.ts).
import { entryRoutes } from "../http/v2/entries.ts";
import type { Feature } from "./feature.ts";

export const entries: Feature = ({ s }) => entryRoutes(s);
