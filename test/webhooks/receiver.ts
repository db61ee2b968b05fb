// Real local HTTPS receivers for webhook tests: a CA and a server certificate made with openssl
// in a temp dir, Bun.serve with TLS on 127.0.0.1, and the `standardwebhooks` library as an
// independent verifier of what Capa sends.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { startApp, withOwner, type Harness } from "../harness.ts";

export interface Certs {
  dir: string;
  caFile: string;
  cert: string;
  key: string;
}

let certs: Promise<Certs> | null = null;

async function openssl(dir: string, args: string[]): Promise<void> {
  const p = Bun.spawn(["openssl", ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  if ((await p.exited) !== 0) throw new Error(`openssl ${args[0]} failed: ${await new Response(p.stderr).text()}`);
}

/** A test CA and a certificate for 127.0.0.1, localhost and hooks.test signed by it (made once per process). */
export function testCerts(): Promise<Certs> {
  certs ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), "capa-webhook-tls-"));
    const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    await openssl(dir, ["req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Capa Webhook Test CA"]);
    await openssl(dir, ["req", ...ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"]);
    await Bun.write(join(dir, "ext.cnf"), "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:hooks.test\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n");
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
      "2",
      "-extfile",
      "ext.cnf",
    ]);
    return { dir, caFile: join(dir, "ca.pem"), cert: await Bun.file(join(dir, "server.pem")).text(), key: await Bun.file(join(dir, "server.key")).text() };
  })();
  return certs;
}

/** One request as the receiver saw it. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** How a receiver answers: a status, silence (for the timeout), or a redirect. */
export type Behaviour = number | "hang" | "redirect";

/** An HTTPS receiver that records every request and answers as told (per path, else `behaviour`). */
export class Receiver {
  readonly received: Received[] = [];
  behaviour: Behaviour = 200;
  readonly byPath = new Map<string, Behaviour>();
  private readonly server: ReturnType<typeof Bun.serve>;
  private readonly hung: (() => void)[] = [];

  constructor(c: Certs) {
    this.server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { cert: c.cert, key: c.key },
      idleTimeout: 30,
      fetch: async (req) => {
        const url = new URL(req.url);
        const headers: Record<string, string> = {};
        req.headers.forEach((v, k) => {
          headers[k] = v;
        });
        this.received.push({ path: url.pathname, headers, body: await req.text() });
        const b = this.byPath.get(url.pathname) ?? this.behaviour;
        if (b === "hang") return new Promise<Response>((resolve) => this.hung.push(() => resolve(new Response("late"))));
        if (b === "redirect") return new Response(null, { status: 302, headers: { location: `${this.url("/elsewhere")}` } });
        return new Response(b >= 200 && b < 300 ? `ok ${this.received.length}` : "receiver says no", { status: b });
      },
    });
  }

  /** A URL on this receiver; `host` may be `localhost` to go through DNS. */
  url(path = "/hook", host = "127.0.0.1"): string {
    return `https://${host}:${this.server.port}${path}`;
  }

  /** Requests received on a path. */
  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Answers every request left hanging. */
  release(): void {
    for (const f of this.hung.splice(0)) f();
  }

  stop(): void {
    this.release();
    this.server.stop(true);
  }
}

/** A TLS server that accepts the connection and request, then closes it without answering. */
export function closingServer(c: Certs): { url: string; hits: () => number; stop(): void } {
  let hits = 0;
  const server = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    tls: { cert: c.cert, key: c.key },
    socket: {
      data(socket) {
        hits++;
        socket.end();
      },
    },
  });
  return { url: `https://127.0.0.1:${server.port}/hook`, hits: () => hits, stop: () => server.stop(true) };
}

/**
 * Verifies a request with the standardwebhooks library against `secret`, at the test's clock
 * (the library checks the timestamp against Date.now with a 5-minute tolerance). Returns the
 * parsed payload, or throws the library's error.
 */
export function verifyAt(secret: string, r: Received, nowMs: number): unknown {
  const real = Date.now;
  Date.now = () => nowMs;
  try {
    return new Webhook(secret).verify(r.body, r.headers);
  } finally {
    Date.now = real;
  }
}

/** An app that trusts the test CA and may call loopback receivers, with a signed-in owner and a model. */
export async function webhookApp(over: Parameters<typeof startApp>[0] = {}, dir?: string) {
  const c = await testCerts();
  const h = dir
    ? startApp({ webhookAllowPrivate: true, webhookCaFile: c.caFile, ...over }, dir)
    : startApp({ webhookAllowPrivate: true, webhookCaFile: c.caFile, ...over });
  const owner = await withOwner(h);
  return { h, c, ...owner };
}

/** Signs the test owner in again (tokens last 24 h of the test clock). */
export async function signIn(h: Harness, email = "owner@example.com", password = "owner-password-1"): Promise<string> {
  const r = await h.json("POST", "/v2/user/login", { body: { email, password } });
  if (r.status !== 200) throw new Error(`login: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.accessToken as string;
}

/** Runs the sender once at the test clock and waits for the lanes it started. */
export function deliver(h: Harness): Promise<void> {
  return h.capa.services.webhooks.runDue(h.clock.now());
}

/** Creates a model `post` with a title and a body field. */
export async function postModel(h: Harness, token: string) {
  const r = await h.json("POST", "/v2/models", {
    token,
    body: {
      name: "Post",
      namespace: "post",
      fields: [
        { namespace: "title", type: "string" },
        { namespace: "body", type: "markdown" },
      ],
    },
  });
  if (r.status !== 201) throw new Error(`model: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: string; namespace: string };
}

/** Creates and publishes an entry of `post`; returns its id. */
export async function publishPost(h: Harness, token: string, title: string): Promise<string> {
  const e = await h.json("POST", "/v2/model-instances", { token, body: { model: "post", data: { title, body: `About ${title}` } } });
  if (e.status !== 201) throw new Error(`entry: ${e.status} ${JSON.stringify(e.body)}`);
  const p = await h.json("POST", `/v2/model-instances/${e.body.id}/publish`, { token });
  if (p.status !== 200) throw new Error(`publish: ${p.status} ${JSON.stringify(p.body)}`);
  return e.body.id;
}

/** Creates an endpoint through the route and returns the 201 body (with the secret). */
export async function createHook(h: Harness, token: string, body: Record<string, unknown>) {
  const r = await h.json("POST", "/v2/webhooks", { token, body });
  if (r.status !== 201) throw new Error(`webhook: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: string; secret: string; url: string; events: string[] };
}
