// The server: read the configuration, build the app, run the first start on an empty data
// directory, listen, and drain in-flight requests on SIGTERM or SIGINT. src/main.ts is the
// process's entry; `capa serve` calls serve() directly.
// A start-up failure is one line on stderr (`capa: <reason>`) and exit code 1, never a stack.
import { loadConfig } from "./config.ts";
import { createApp, largestBodyLimit, type CapaApp } from "./app.ts";
import { die, startupReason, type Phase } from "./startup-failure.ts";
import { bootstrap, firstStartBanner } from "./domain/bootstrap.ts";
import type { OwnerPassword } from "./domain/owner-password.ts";
import { warnWideModes } from "./storage/permissions.ts";
import { releaseStartupMemory, startHeapTrim } from "./infra/heap-trim.ts";

/** How long a stop waits for in-flight requests before closing their connections. */
export const DRAIN_MS = 10_000;

/**
 * Bun refuses bodies above this before the app sees them. It sits a little above the largest
 * route limit, so a body just over a route's limit still gets the catalogue's 413 answer.
 */
const serverBodyLimit = (config: Parameters<typeof largestBodyLimit>[0]) => largestBodyLimit(config) + 64 * 1024;

type Env = Record<string, string | undefined>;

/** Formats a host for a URL (IPv6 addresses need brackets). */
function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Starts the server and resolves once it listens. Used by src/main.ts and `capa serve`.
 * `owner` is the first start's owner password, already being hashed (src/main.ts).
 */
export async function serve(env: Env = process.env, owner: Promise<OwnerPassword | null> = Promise.resolve(null)): Promise<void> {
  let capa: CapaApp | null = null;
  let where: { host: string; port: number; dataDir: string } | undefined;
  let phase: Phase = "config";
  let server: ReturnType<typeof Bun.serve>;
  let origin: string;
  try {
    const config = loadConfig(env);
    where = { host: config.host, port: config.port, dataDir: config.dataDir };
    phase = "data";
    // Files made by this process and its children (Litestream's shadow WAL and file replicas)
    // are for this user only; Capa's own files are made 0600/0700 explicitly as well.
    process.umask(0o077);
    capa = createApp(config);
    warnWideModes(config.dataDir, capa.services.log);
    // Awaited before listening, so no request is served before bootstrap finishes (below).
    const prepared = await owner;
    phase = "listen";
    // Listen before the first start, so a port already in use fails before any secret is
    // printed; bootstrap is synchronous, so no request is served before it finishes.
    // reusePort is off: with it, a second server would silently share the port.
    capa.app.listen({ hostname: config.host, port: config.port, reusePort: false, maxRequestBodySize: serverBodyLimit(config) });
    server = capa.app.server!;
    origin = `http://${urlHost(config.host)}:${server.port}`;
    phase = "first-start";
    const first = bootstrap(capa.services, prepared);
    if (first) process.stdout.write(`${firstStartBanner(first, origin)}\n`);
    // Replication starts after the first start, so the files it creates are in its first config.
    capa.replication.start();
    // Background loops (scheduler, webhook sender, batches) start once the server serves.
    capa.jobs.start();
    // A busy main thread's heap is collected once a second (infra/heap-trim.ts); the read workers run their own.
    startHeapTrim();
    // What starting left behind (migrations, the first start, compiled start-up code) goes back
    // to the system once the first timers have run: about 3 MiB of an idle server's RSS.
    setTimeout(releaseStartupMemory, 0).unref();
  } catch (err) {
    try {
      capa?.app.server?.stop(true);
      capa?.close();
    } catch {
      // The process is exiting with the first error; a second one would only hide it.
    }
    die(startupReason(err, phase, where));
  }
  const app = capa;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      // A second signal cuts the drain short.
      server.stop(true);
      return;
    }
    stopping = true;
    app.services.log.info("stopping", { signal, inFlight: server.pendingRequests, drainMs: DRAIN_MS });
    // app.stop stops accepting, waits for in-flight requests, then runs the app's stop hooks.
    const stopped = app.app.stop();
    const drained = await Promise.race([stopped.then(() => true), Bun.sleep(DRAIN_MS).then(() => false)]);
    if (!drained) {
      app.services.log.warn("drain timed out; closing open connections", { inFlight: server.pendingRequests });
      server.stop(true);
      await Promise.race([stopped, Bun.sleep(1000)]);
    }
    await app.jobs.stop(DRAIN_MS);
    // close() flushes batched writes (key use, page reads) and closes the files; Litestream stops
    // last, so its final sync carries those writes to the replica.
    app.close();
    await app.replication.stop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  // Announced only once the signal handlers are in place: a supervisor that reacts to this line
  // with SIGTERM must get a drain, not the default kill.
  process.stdout.write(`Capa listening on ${origin}\n`);
}
