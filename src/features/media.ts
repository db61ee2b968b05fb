// The media library (decisions.md section 10): the /v2 media and folder routes on both mounts, the
// public file URL, and (with CAPA_REPLICA_URL) the media-backup job, sharing one store and variant
// cache opened on first use. Its events go through the outbox like every other (the webhooks
// feature subscribes to all of them).
import { backupProject, hasPendingBackups, mediaReplica } from "../domain/media/backup.ts";
import { MediaRuntime } from "../domain/media/runtime.ts";
import { projectsOnDisk } from "../domain/scheduling/wake.ts";
import { mediaFileRoutes } from "../http/media-files.ts";
import { mediaRoutes } from "../http/v2/media.ts";
import type { Feature } from "./feature.ts";

export const media: Feature = ({ s, jobs }) => {
  const rt = new MediaRuntime(s.config, s.clock);
  const url = s.config.replicaUrl;
  if (url !== null) {
    const replica = mediaReplica({ replicaUrl: url, replicaEndpoint: s.config.replicaEndpoint, replicaRegion: s.config.replicaRegion });
    jobs.add({
      name: "media-backup",
      pattern: "* * * * * *",
      run: async () => {
        // The first tick looks for projects a restart left with pending rows (read-only, without
        // opening them in the pool); later ticks only at projects that uploaded since or still
        // have backups pending.
        rt.backupsDue ??= new Set(projectsOnDisk(s).filter((id) => hasPendingBackups(s.projects.path(id))));
        const parts = await rt.ready();
        for (const id of [...rt.backupsDue]) {
          if (!s.projects.exists(id)) {
            rt.backupsDue.delete(id);
            continue;
          }
          const h = s.projects.hold(id);
          try {
            if ((await backupProject(s, h, parts.store, replica)) === 0) rt.backupsDue.delete(id);
          } finally {
            s.projects.release(h);
          }
        }
      },
    });
  }
  return { routes: mediaFileRoutes(s, rt), management: () => mediaRoutes(s, rt) };
};
