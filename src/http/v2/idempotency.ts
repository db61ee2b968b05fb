// The Idempotency-Key header on the POST routes of scheduling, bulk and publishing now.
import type { Services } from "../../services.ts";
import type { Principal } from "../../domain/access/principal.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { idempotent, type Answer } from "../../domain/idempotency/service.ts";
import { actorOf } from "./entries.ts";

type Set = { status?: number | string; headers: Record<string, string | number> };

/**
 * Runs `act` under the request's Idempotency-Key (when sent) and writes its status to `set`.
 * A replayed answer carries `Idempotency-Replayed: true`.
 */
export function once(s: Services, h: ProjectHandle, p: Principal, request: Request, body: unknown, set: Set, act: () => Answer): unknown {
  const r = idempotent(
    s,
    h,
    {
      principal: actorOf(p),
      key: request.headers.get("idempotency-key"),
      method: request.method,
      path: new URL(request.url).pathname,
      body,
    },
    act,
  );
  set.status = r.status;
  if (r.replayed) set.headers["idempotency-replayed"] = "true";
  return r.body;
}
