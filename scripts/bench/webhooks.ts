// `bench webhooks`: publishing 1,000 entries to 3 endpoints on a loopback HTTPS receiver (its own
// process, a certificate from a CA made here) delivers all 3,000 events. Reports the time from the
// last publish to the last delivery, and publish throughput with and without endpoints: the
// outbox (event row plus one delivery row per endpoint, in the publish's transaction) may cost
// at most 20%.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, type CapaApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { createProject } from "../../src/domain/projects/service.ts";
import { createModel } from "../../src/domain/models/service.ts";
import { createEntry } from "../../src/domain/entries/service.ts";
import { publishEntry } from "../../src/domain/entries/publish.ts";
import { createEndpoint } from "../../src/domain/webhooks/endpoints.ts";
import type { ProjectHandle } from "../../src/storage/pool.ts";
import { median, spawnServer } from "./load.ts";
import type { Figure } from "./entries.ts";

const N = 1000;
const ENDPOINTS = 3;
const ROUNDS = 16;
const BATCH = 250;
const fmt = (n: number, d = 0) => n.toFixed(d);

async function openssl(dir: string, args: string[]): Promise<void> {
  const p = Bun.spawn(["openssl", ...args], { cwd: dir, stdout: "ignore", stderr: "pipe" });
  if ((await p.exited) !== 0) throw new Error(`openssl ${args[0]} failed: ${await new Response(p.stderr).text()}`);
}

/** A CA and a certificate for 127.0.0.1 signed by it. */
async function makeCerts(dir: string) {
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  await openssl(dir, ["req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=Capa Bench CA"]);
  await openssl(dir, ["req", ...ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"]);
  await Bun.write(join(dir, "ext.cnf"), "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
  await openssl(dir, [
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "server.pem",
    "-days",
    "1",
    "-extfile",
    "ext.cnf",
  ]);
  return { ca: join(dir, "ca.pem"), cert: join(dir, "server.pem"), key: join(dir, "server.key") };
}

interface Setup {
  capa: CapaApp;
  h: ProjectHandle;
  dir: string;
  /** `count` new draft entries, ready to publish. */
  drafts(count: number): string[];
}

function setup(caFile: string): Setup {
  const dir = mkdtempSync(join(tmpdir(), "capa-bench-webhooks-"));
  const capa = createApp(testConfig(dir, { webhookAllowPrivate: true, webhookCaFile: caFile, logLevel: "warn" }));
  const s = capa.services;
  const user = createUser(s, { email: "bench@example.com", password: "bench-password" });
  const project = createProject(s, { name: "Bench", ownerId: user.id });
  const h = s.projects.get(project.id);
  createModel(s, h, {
    name: "Post",
    namespace: "post",
    fields: [
      { namespace: "title", type: "string" },
      { namespace: "body", type: "markdown" },
      { namespace: "price", type: "number" },
    ],
  });
  let n = 0;
  const drafts = (count: number) =>
    Array.from({ length: count }, () => {
      n++;
      return createEntry(s, h, "system", { model: "post", data: { title: `Post ${n}`, body: `Body of post ${n}. `.repeat(10), price: n } }).id as string;
    });
  return { capa, h, dir, drafts };
}

/** Publishes every id in a tight loop; returns publishes per second. */
function publishAll(x: Setup, ids: string[]): number {
  const t = performance.now();
  for (const id of ids) publishEntry(x.capa.services, x.h, "system", id);
  return ids.length / ((performance.now() - t) / 1000);
}

async function addEndpoints(x: Setup, base: string): Promise<void> {
  for (let i = 0; i < ENDPOINTS; i++) {
    await createEndpoint(x.capa.services, x.h.id, "system", { url: `${base}/hook-${i}`, includeContent: i === 0 });
  }
}

export async function benchWebhooks(): Promise<Figure[]> {
  const certDir = mkdtempSync(join(tmpdir(), "capa-bench-tls-"));
  const certs = await makeCerts(certDir);
  const receiver = await spawnServer(join(import.meta.dir, "webhook-receiver.ts"), [certs.cert, certs.key]);
  const base = receiver.info.url as string;
  const out: Figure[] = [];
  const cleanup: Setup[] = [];
  try {
    // 1. The outbox's cost: the same publishes with no endpoints and with 3 (sender idle), rounds interleaved.
    const plain = setup(certs.ca);
    const hooked = setup(certs.ca);
    cleanup.push(plain, hooked);
    await addEndpoints(hooked, base);
    publishAll(plain, plain.drafts(200));
    publishAll(hooked, hooked.drafts(200));
    // Small batches, alternating which app goes first, so machine noise falls on both alike.
    // Per round, the throughput of each app; the medians (and the median of the per-round ratios)
    // resist a burst of other work falling on one round.
    const without: number[] = [];
    const withHooks: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const pair: [Setup, number[]][] = [
        [plain, without],
        [hooked, withHooks],
      ];
      for (const [x, into] of r % 2 ? pair.reverse() : pair) into.push(publishAll(x, x.drafts(BATCH)));
    }
    const a = median(without);
    const b = median(withHooks);
    out.push({
      figure: `webhooks: publish throughput with ${ENDPOINTS} endpoints (one with content data; outbox rows only, sender idle), publishes/s, medians of ${ROUNDS} alternating rounds of ${BATCH} (target ratio >= 0.8)`,
      value: fmt(b),
      baseline: `${fmt(a)} (no endpoints)`,
      ratio: fmt(median(withHooks.map((x, i) => x / without[i]!)), 2),
    });

    // 2. End to end: the sender runs as in production (its job ticking, new deliveries start a run at once).
    const live = setup(certs.ca);
    cleanup.push(live);
    await addEndpoints(live, base);
    const ids = live.drafts(N);
    live.capa.jobs.start();
    const sender = live.capa.services.webhooks;
    const t0 = performance.now();
    for (const id of ids) {
      publishEntry(live.capa.services, live.h, "system", id);
      // Yield between publishes, as requests do, so the sender shares the thread.
      await new Promise((r) => setImmediate(r));
    }
    const lastPublish = performance.now();
    const open = () => (live.h.sqlite.query("SELECT count(*) AS n FROM webhook_deliveries WHERE status <> 'succeeded'").get() as { n: number }).n;
    while (open() > 0 && performance.now() - lastPublish < 120_000) {
      await sender.idle();
      await Bun.sleep(1);
    }
    const lastDelivery = performance.now();
    await live.capa.jobs.stop();
    const counts = (await (await fetch(`${base}/count`, { tls: { ca: await Bun.file(certs.ca).text() } })).json()) as Record<string, number>;
    const delivered = Object.entries(counts)
      .filter(([p]) => p.startsWith("/hook-"))
      .reduce((n, [, c]) => n + c, 0);
    const sent = (live.h.sqlite.query("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'").get() as { n: number }).n;
    if (sent !== N * ENDPOINTS) throw new Error(`only ${sent} of ${N * ENDPOINTS} deliveries succeeded`);
    const liveRate = N / ((lastPublish - t0) / 1000);
    out.push({
      figure: `webhooks: ${N} publishes to ${ENDPOINTS} endpoints, ${sent} deliveries succeeded (receiver counted ${delivered}); time from last publish to last delivery, ms`,
      value: fmt(lastDelivery - lastPublish),
      baseline: `${fmt(lastDelivery - t0)} (first publish to last delivery)`,
      ratio: "",
    });
    out.push({
      figure: "webhooks: publish throughput while the sender delivers in the same process (yielding between publishes), publishes/s",
      value: fmt(liveRate),
      baseline: `${fmt(a)} (no endpoints, tight loop)`,
      ratio: fmt(liveRate / a, 2),
    });
    return out;
  } finally {
    receiver.proc.kill();
    for (const x of cleanup) {
      x.capa.close();
      rmSync(x.dir, { recursive: true, force: true });
    }
    rmSync(certDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  for (const f of await benchWebhooks()) console.log(`| ${f.figure} | ${f.value} | ${f.baseline} | ${f.ratio} |`);
}
