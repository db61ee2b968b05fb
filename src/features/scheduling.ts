// Scheduled publishing: the routes and the runner that claims due actions every second.
import { schedulingRoutes } from "../http/v2/scheduling.ts";
import { runDueActions } from "../domain/scheduling/runner.ts";
import type { Feature } from "./feature.ts";

export const scheduling: Feature = ({ s, jobs }) => {
  jobs.add({ name: "scheduler", pattern: "* * * * * *", run: (now) => void runDueActions(s, now) });
  return { management: () => schedulingRoutes(s) };
};
