// Bulk publish and unpublish: the routes and the loop that works through large batches.
import { bulkRoutes } from "../http/v2/bulk.ts";
import { runBulkBatches } from "../domain/bulk/runner.ts";
import type { Feature } from "./feature.ts";

export const bulk: Feature = ({ s, jobs }) => {
  jobs.add({ name: "bulk-batches", pattern: "* * * * * *", run: (now) => void runBulkBatches(s, now) });
  return { management: () => bulkRoutes(s) };
};
