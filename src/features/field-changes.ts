// Field changes: the routes and the job that counts, stages and moves changes in the background.
import { fieldChangeRoutes } from "../http/v2/field-changes.ts";
import { runFieldChanges } from "../domain/field-changes/runner.ts";
import type { Feature } from "./feature.ts";

export const fieldChanges: Feature = ({ s, jobs }) => {
  jobs.add({ name: "field-changes", pattern: "* * * * * *", run: async (now) => void (await runFieldChanges(s, now)) });
  return { management: () => fieldChangeRoutes(s) };
};
