// Entries under management: drafts, versions, publishing now (src/http/v2/entries.ts), the
// trash (src/http/v2/trash.ts) and the job that empties it of entries older than CAPA_TRASH_DAYS.
import { Elysia } from "elysia";
import { purgeTrash } from "../domain/entries/trash.ts";
import { entryRoutes } from "../http/v2/entries.ts";
import { trashRoutes } from "../http/v2/trash.ts";
import type { Feature } from "./feature.ts";

export const entries: Feature = ({ s, jobs }) => {
  // Only projects whose trash holds an entry due are opened (the wake table knows when).
  jobs.add({ name: "trash", pattern: "0 * * * * *", run: (now) => void s.wake.trash.runDue(now, s, "trash", (id) => purgeTrash(s, s.projects.get(id), now)) });
  return { management: () => new Elysia().use(entryRoutes(s)).use(trashRoutes(s)) };
};
