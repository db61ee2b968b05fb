// The media library (decisions.md section 10): the /v2 media and folder routes on both mounts and
// the public file URL, sharing one store and variant cache opened on first use. Its events go
// through the outbox like every other (the webhooks feature subscribes to all of them).
import { Elysia } from "elysia";
import { MediaRuntime } from "../domain/media/runtime.ts";
import { mediaFileRoutes } from "../http/media-files.ts";
import { mediaRoutes } from "../http/v2/media.ts";
import type { Feature } from "./feature.ts";

export const media: Feature = ({ s }) => {
  const rt = new MediaRuntime(s.config, s.clock);
  return new Elysia().use(mediaRoutes(s, rt)).use(mediaFileRoutes(s, rt));
};
