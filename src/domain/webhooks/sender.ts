// The webhook sender. Every tick it looks into the projects that have endpoints, and for each
// endpoint with a due delivery starts a lane: a loop that claims that endpoint's next delivery,
// sends it, records the attempt, and goes on until nothing is due. One lane per endpoint keeps
// an endpoint's deliveries in order of occurrence; lanes of different endpoints run side by side,
// so a slow receiver never holds up another one.
import { readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";
import type { Services } from "../../services.ts";
import { RESPONSE_LIMIT } from "./deliveries.ts";
import { claimNext, dueEndpoints, nextDueAt, pruneFinished, recordAttempt, requeueInterrupted, type AttemptResult, type Claimed } from "./queue.ts";
import { activeSubscribers, webhookProjectIds } from "./subscribers.ts";
import { SECRET_KIND, sealClearSecrets } from "./endpoint-secrets.ts";
import { bareHost, checkDestination, pinnedUrl, type Destination } from "./safety.ts";
import { signedHeaders } from "./signing.ts";

/** How often each project's finished deliveries older than the retention window are pruned. */
const PRUNE_EVERY_MS = 3_600_000;

/** How long one attempt may take, answer included (decisions.md section 6). */
export const TIMEOUT_MS = 10_000;

export class WebhookSender {
  /** The per-attempt timeout; tests lower it so a silent receiver does not cost 10 s. */
  timeoutMs = TIMEOUT_MS;
  /** Resolves and checks a destination before an attempt (DNS); tests replace it to stand in for a public name. */
  resolve: (u: URL) => Promise<Destination> = (u) => checkDestination(u, "refuse");
  private readonly lanes = new Map<string, Promise<void>>();
  /** Per project: no delivery falls due before this time, unless a new one is written (wake). */
  private readonly quietUntil = new Map<string, number>();
  /** Per project: when finished deliveries were last pruned. */
  private readonly prunedAt = new Map<string, number>();
  /** Projects whose interrupted deliveries this process has put back in the queue. */
  private readonly recovered = new Set<string>();
  private tlsOptions: { ca: string[] } | undefined | null = null;
  private stopped = false;
  /** Set once the job's timer ticks: from then on new deliveries start a run at once instead of at the next tick. */
  private live = false;
  private kickQueued = false;

  /** `services` is called only after construction (the services hold this object). */
  constructor(private readonly services: () => Services) {}

  private get s(): Services {
    return this.services();
  }

  /** Told after a commit that wrote deliveries of a project: look at it now, not at its quiet time. */
  wake(projectId: string): void {
    this.quietUntil.delete(projectId);
    this.kick();
  }

  /** Marks the sender as driven by its timer (the job's first tick). */
  goLive(): void {
    this.live = true;
  }

  /**
   * Starts a run soon after new deliveries are written, so an event does not wait for the next
   * tick. It runs after the writing transaction has ended; tests, which drive runDue themselves,
   * never go live and keep full control.
   */
  private kick(): void {
    if (!this.live || this.stopped || this.kickQueued) return;
    this.kickQueued = true;
    setTimeout(() => {
      this.kickQueued = false;
      this.runDue().catch((e) => this.s.log.error("webhook run failed", { error: String(e instanceof Error ? e.stack : e) }));
    }, 0);
  }

  /**
   * One tick: starts a lane for every endpoint with a due delivery and resolves when the lanes
   * it started are idle. The job does not wait for it; tests do.
   */
  async runDue(now: number = this.s.clock.now()): Promise<void> {
    if (this.stopped) return;
    const started: Promise<void>[] = [];
    for (const projectId of webhookProjectIds(this.s)) {
      const quiet = this.quietUntil.get(projectId);
      const pruneDue = now - (this.prunedAt.get(projectId) ?? Number.NEGATIVE_INFINITY) >= PRUNE_EVERY_MS;
      if (quiet !== undefined && quiet > now && !pruneDue) continue;
      const h = this.s.projects.get(projectId);
      if (pruneDue) {
        this.prunedAt.set(projectId, now);
        pruneFinished(this.s, h, now);
      }
      if (!this.recovered.has(projectId)) {
        // Nothing of this process is sending in this project yet: whatever says `sending` was cut off by a stop.
        const n = requeueInterrupted(this.s, h, now);
        if (n > 0) this.s.log.warn("webhook deliveries interrupted by a stop are sent again", { projectId, deliveries: n });
        // Secrets an older version stored in the clear are sealed the first time this process sends here.
        const sealedNow = sealClearSecrets(this.s, h);
        if (sealedNow > 0) this.s.log.info("webhook signing secrets stored in the clear are now sealed", { projectId, endpoints: sealedNow });
        this.recovered.add(projectId);
      }
      // While every endpoint has a lane running there is nothing to start (and no scan to pay for).
      if (activeSubscribers(h).every((ep) => this.lanes.has(`${projectId}/${ep.id}`))) continue;
      for (const endpointId of dueEndpoints(h, now)) {
        const key = `${projectId}/${endpointId}`;
        if (this.lanes.has(key)) continue;
        const lane = this.lane(projectId, endpointId)
          .catch((e) => this.s.log.error("webhook lane failed", { projectId, endpointId, error: String(e instanceof Error ? e.stack : e) }))
          .finally(() => {
            this.lanes.delete(key);
            this.refreshQuiet(projectId);
          });
        this.lanes.set(key, lane);
        started.push(lane);
      }
      this.refreshQuiet(projectId);
    }
    await Promise.all(started);
  }

  /**
   * Stops for good: lanes finish the request they have out and record nothing more, so an
   * attempt cut off here stays `sending` and is sent again with the same id after a restart.
   */
  stop(): void {
    this.stopped = true;
  }

  /** Waits for every running lane (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.lanes.size > 0) await Promise.all([...this.lanes.values()]);
  }

  private refreshQuiet(projectId: string): void {
    if (this.stopped || !this.s.projects.exists(projectId)) return;
    const next = nextDueAt(this.s.projects.get(projectId));
    this.quietUntil.set(projectId, next ?? Number.POSITIVE_INFINITY);
  }

  /** Sends an endpoint's due deliveries one after another, in order of occurrence. */
  private async lane(projectId: string, endpointId: string): Promise<void> {
    for (;;) {
      // The handle is looked up each round: the pool may have closed it while a request was out.
      if (this.stopped || !this.s.projects.exists(projectId)) return;
      const claimedAt = this.s.clock.now();
      const job = claimNext(this.s.projects.get(projectId), endpointId, claimedAt);
      if (!job) return;
      const result = await this.attempt(job);
      if (this.stopped || !this.s.projects.exists(projectId)) return;
      recordAttempt(this.s, this.s.projects.get(projectId), job.deliveryId, result, this.s.clock.now());
    }
  }

  /** One signed POST; never throws. */
  async attempt(job: Claimed): Promise<AttemptResult> {
    const startedAt = this.s.clock.now();
    const t0 = performance.now();
    const done = (r: Omit<AttemptResult, "startedAt" | "durationMs">): AttemptResult => ({ startedAt, durationMs: performance.now() - t0, ...r });
    const url = new URL(job.url);
    let secrets: string[];
    try {
      secrets = job.secrets.map((x) => this.s.secretBox.open(x, SECRET_KIND));
    } catch {
      // The only way opening fails is a key that is not the one that sealed (SecretUnreadable).
      const error = "Not sent: the signing secret does not open with this data directory's secret.key; put the original key file back or rotate the secret.";
      return done({ statusCode: null, succeeded: false, error, response: null });
    }
    const headers = signedHeaders(secrets, job.eventId, startedAt, job.body);
    let target = url.href;
    let tls = this.tls();
    if (!this.s.config.webhookAllowPrivate) {
      const d = await this.resolve(url);
      if ("refused" in d) return done({ statusCode: null, succeeded: false, error: `Not sent: ${d.refused}.`, response: null });
      if (d.address !== null) {
        // Connect to the address that was checked; the name still chooses the certificate and Host.
        target = pinnedUrl(url, d.address);
        headers.host = url.host;
        tls = { ...tls, serverName: bareHost(url) };
      }
    }
    const signal = AbortSignal.timeout(this.timeoutMs);
    // What the delivery log shows of the request: every header as sent, the signature masked.
    const requestHeaders = maskedHeaders(headers);
    try {
      const res = await fetch(target, { method: "POST", headers, body: job.body, redirect: "manual", signal, tls });
      const responseHeaders = answerHeaders(res.headers);
      const response = await firstBytes(res, RESPONSE_LIMIT);
      const ok = res.status >= 200 && res.status < 300;
      let error: string | null = null;
      if (res.status >= 300 && res.status < 400)
        error = `Answered ${res.status}; redirects are not followed${res.headers.get("location") ? ` (to ${res.headers.get("location")})` : ""}.`;
      else if (!ok) error = `Answered ${res.status}.`;
      return done({ statusCode: res.status, succeeded: ok, error, response, requestHeaders, responseHeaders });
    } catch (e) {
      const err = e as { name?: string; code?: string; message?: string };
      const timedOut = err.name === "TimeoutError" || signal.aborted;
      const error = timedOut
        ? `No answer within ${this.timeoutMs / 1000} s.`
        : `Request failed: ${err.code ?? err.name ?? "error"}${err.message ? ` (${err.message})` : ""}.`;
      return done({ statusCode: null, succeeded: false, error, response: null, requestHeaders, responseHeaders: null });
    }
  }

  /** The CA of CAPA_WEBHOOK_CA_FILE trusted beside the system's roots. */
  private tls(): { ca?: string[]; serverName?: string } | undefined {
    if (this.tlsOptions !== null) return this.tlsOptions;
    const file = this.s.config.webhookCaFile;
    this.tlsOptions = undefined;
    if (file) {
      try {
        this.tlsOptions = { ca: [...rootCertificates, readFileSync(file, "utf8")] };
      } catch (e) {
        this.s.log.error("CAPA_WEBHOOK_CA_FILE cannot be read; only the system's CAs are trusted", { file, error: String(e) });
      }
    }
    return this.tlsOptions;
  }
}

/** The request headers as the log keeps them: each signature's value masked (`v1,****`). */
export function maskedHeaders(headers: Record<string, string>): Record<string, string> {
  const out = { ...headers };
  if (out["webhook-signature"]) out["webhook-signature"] = out["webhook-signature"].replace(/v1,[^ ]+/g, "v1,****");
  return out;
}

/** Headers of an answer kept with an attempt: at most 50, each value at most 1,024 characters. */
function answerHeaders(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  for (const [k, v] of h) {
    if (n++ >= 50) break;
    out[k] = v.length > 1024 ? `${v.slice(0, 1024)}…` : v;
  }
  return out;
}

/** Reads up to `limit` bytes of an answer and lets the rest go. */
async function firstBytes(res: Response, limit: number): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  try {
    while (n < limit) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      n += value.byteLength;
    }
  } catch {
    // The status arrived; an answer body cut short does not change the outcome.
  } finally {
    reader.cancel().catch(() => {});
  }
  const all = new Uint8Array(Math.min(n, limit));
  let off = 0;
  for (const c of chunks) {
    const part = c.subarray(0, Math.min(c.byteLength, all.byteLength - off));
    all.set(part, off);
    off += part.byteLength;
    if (off >= all.byteLength) break;
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(all);
}

/** The body of the `webhooks` job: starts lanes and returns at once, so a slow receiver never blocks the next tick. */
export function webhookTick(s: Services, now: number): void {
  const sender = s.webhooks;
  sender.goLive();
  sender.runDue(now).catch((e) => s.log.error("webhook tick failed", { error: String(e instanceof Error ? e.stack : e) }));
}
