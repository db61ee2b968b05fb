// The public file URL (decisions.md section 10): `GET|HEAD /media/<projectId>/<mediaId>/<filename>`,
// no key, answered by serveMedia (ETag, 304, Range, transforms from the variant cache). Errors use
// the /api envelope (the guard renders /media/ paths as it renders /api). A path that is not a
// file URL, a project or file that does not exist, or a name that is not the file's answers 404.
import { Elysia } from "elysia";
import type { Services } from "../services.ts";
import { AppError } from "../errors.ts";
import { servableFile } from "../domain/media/records.ts";
import type { MediaRuntime } from "../domain/media/runtime.ts";
import { serveMedia } from "../domain/media/serve.ts";
import { parseMediaPath } from "../domain/media/url.ts";
import { clientIp } from "./context.ts";

/** The public file routes. */
export function mediaFileRoutes(s: Services, rt: MediaRuntime) {
  const handle = async (request: Request, server: Parameters<typeof clientIp>[0]) => {
    const where = parseMediaPath(s.requests.of(request).url.pathname);
    const file = where && servableFile(s, where.projectId, where.mediaId, where.filename);
    if (!file) throw new AppError("not_found", { message: "No file at this URL." });
    const parts = await rt.ready();
    return serveMedia(request, file, parts.store, { variants: parts.variants, client: clientIp(server, request) });
  };
  // Elysia answers HEAD itself from the GET handler's body, which drops the Content-Length of a
  // streamed or Blob body; a HEAD of a file URL is answered here, before routing, instead.
  return new Elysia()
    .onRequest(({ request, server }) => {
      if (request.method === "HEAD" && s.requests.of(request).url.pathname.startsWith("/media/")) return handle(request, server);
    })
    .get("/media/*", ({ request, server }) => handle(request, server), { parse: "none" });
}
