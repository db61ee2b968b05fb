// The read API on /api: versions, key information, entries, pages and preview tokens (the /v2
// route that mints them included), and the timer that writes batched key use and page reads.
import { Elysia } from "elysia";
import { versionRoutes } from "../http/api/versions.ts";
import { meRoutes } from "../http/api/me.ts";
import { entryReadRoutes } from "../http/api/entries.ts";
import { pageRoutes } from "../http/api/pages.ts";
import { previewRoutes } from "../http/api/preview.ts";
import { previewTokenRoutes } from "../http/v2/preview.ts";
import type { Feature } from "./feature.ts";

/** Batched writes (key use, page reads) go to disk this often, and once more at close. */
const FLUSH_MS = 10_000;

export const reads: Feature = ({ s, onClose }) => {
  const flush = () => {
    try {
      s.keys.flush();
      s.pages.flush();
    } catch (e) {
      s.log.error("batched write failed", { error: String(e) });
    }
  };
  const timer = setInterval(flush, FLUSH_MS);
  timer.unref?.();
  onClose(() => {
    clearInterval(timer);
    flush();
  });
  return {
    routes: new Elysia().use(versionRoutes(s)).use(meRoutes(s)).use(entryReadRoutes(s, s.pages)).use(pageRoutes(s, s.pages)).use(previewRoutes(s)),
    management: () => previewTokenRoutes(s),
  };
};
