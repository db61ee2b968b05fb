// Edge caches (decisions.md 14; docs/scaling.md): the purger's job, which sends the purge outbox
// to the targets of CAPA_EDGE_PURGE. The rows themselves are written by the changes that purge
// (src/domain/edge/changes.ts); tags and lifetimes are added on the read path
// (src/domain/edge/tags.ts). Without a target there is no job.
import { edgePurgeTick } from "../domain/edge/purger.ts";
import type { Feature } from "./feature.ts";

export const edge: Feature = ({ s, jobs, onClose }) => {
  if (s.edge.enabled) {
    jobs.add({ name: "edge-purge", pattern: "* * * * * *", run: (now) => edgePurgeTick(s, now) });
    onClose(() => s.edge.stop());
  }
  return {};
};
