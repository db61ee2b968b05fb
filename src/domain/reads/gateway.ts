// The main thread's side of an uncached entries read: the in-flight limits (client = key + IP,
// key, project), then a worker of the read pool; a refusal the worker reports comes back as the
// AppError it stands for. Entries reads and the legacy lists run through here; GraphQL acquires
// the same limits once per document and runs its reads on the same pool.
import { AppError } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { readSlots } from "../../infra/limits.ts";
import type { ReadJob, ReadOutcome } from "./job.ts";

/** A read that succeeded. */
export type ReadDone = Extract<ReadOutcome, { ok: true }>;

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
    outcome = await s.reads.run(job);
  } finally {
    release();
  }
  if (!outcome.ok) {
    const e = outcome.error;
    throw new AppError(e.code, { message: e.message, param: e.param, hint: e.hint, extra: e.extra, headers: headersFor?.(e.code) });
  }
  return outcome;
}
