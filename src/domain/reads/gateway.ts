// The main thread's side of an uncached entries read: the in-flight limits (client = key + IP,
// key, project), then the read itself. An item by id (one primary-key lookup, then one lookup by
// ids per relation level, at most three) runs right here on the main thread's connection: it
// costs about 10 us, less than the worker hop (a structured clone each way and a postMessage of
// about 45 us on the busy main thread, docs/performance.md). Every other read (lists, whose plan
// may scan and sort a model) runs on a worker of the read pool, which keeps its 503 and 504
// guarantees. A refusal comes back as the AppError it stands for. GraphQL acquires the same
// limits once per document and runs its reads on the same pool.
import { AppError } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { readSlots } from "../../infra/limits.ts";
import { runReadJob, type ReadJob, type ReadOutcome } from "./job.ts";

/** A read that succeeded. */
export type ReadDone = Extract<ReadOutcome, { ok: true }>;

/** Where a read runs: `inline` on the main thread, `pool` on a read worker. */
export type ReadPath = "inline" | "pool";

/** Picks the path of a job: items by id inline (unless CAPA_READ_INLINE is off), everything else on the pool. */
export function readPath(s: Services, job: ReadJob): ReadPath {
  return s.config.readInline && job.args.kind === "item" && !job.graphql ? "inline" : "pool";
}

/**
 * Runs a bounded read on the main thread's connection to the project file. The read is
 * synchronous, so no write's transaction (also synchronous) can be open on that connection
 * around it; a failure that is not a client error is logged and answered as the worker's
 * crash is, 500 internal.
 */
function runInline(s: Services, job: ReadJob): ReadOutcome {
  s.reads.inlineRuns++;
  try {
    return runReadJob(s.projects.get(job.projectId), job);
  } catch (e) {
    s.log.error("inline read failed", { error: String(e instanceof Error ? e.stack : e) });
    throw new AppError("internal");
  }
}

/**
 * Runs a read under the limits of `keyId` from `ip`; `headersFor` picks extra headers for a
 * refusal (a production 404 for a well-formed id is cacheable).
 */
export async function runLimitedRead(
  s: Services,
  job: ReadJob,
  keyId: string,
  ip: string,
  headersFor?: (code: string) => Record<string, string> | undefined,
): Promise<ReadDone> {
  const release = s.limits.inFlight.acquire(readSlots(s.config.inFlight, keyId, ip, job.projectId));
  let outcome: ReadOutcome;
  try {
    outcome = readPath(s, job) === "inline" ? runInline(s, job) : await s.reads.run(job);
  } finally {
    release();
  }
  if (!outcome.ok) {
    const e = outcome.error;
    throw new AppError(e.code, { message: e.message, param: e.param, hint: e.hint, extra: e.extra, headers: headersFor?.(e.code) });
  }
  return outcome;
}
