// A media server in its own process, for what only a fresh process can show (its RSS, requests
// from several client addresses): started from the sources as an operator would, signed in, with
// one project. Shared by test/media/decode-memory.test.ts and scripts/media-memory-probe.ts.
import { readFileSync } from "node:fs";
import http from "node:http";
import { type ServerProc, startServer, tempDataDir } from "../spawn.ts";

const EMAIL = "media@example.com";
const PASSWORD = "media-password-1";

/** A running server with a signed-in owner and a project. */
export interface MediaServer {
  server: ServerProc;
  origin: string;
  pid: number;
  token: string;
  projectId: string;
  /** Uploads one file with POST /v2/media. */
  upload(name: string, bytes: Uint8Array | string): Promise<{ status: number; body: any; ms: number }>;
  /** A GET of `path` sent from `localAddress` (127.0.0.x: one client per address). */
  get(path: string, localAddress?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; ms: number; bytes: number }>;
  stop(): Promise<void>;
}

/** Starts the server with `env` on a temp data directory. */
export async function startMediaServer(env: Record<string, string> = {}): Promise<MediaServer> {
  const data = tempDataDir();
  const server = startServer({ CAPA_DATA_DIR: data.dir, PORT: "0", CAPA_DEMO: "0", CAPA_ADMIN_EMAIL: EMAIL, CAPA_ADMIN_PASSWORD: PASSWORD, ...env });
  let origin: string;
  try {
    origin = await server.listening(15_000);
  } catch (err) {
    data.remove();
    throw err;
  }
  const json = async (method: string, path: string, body?: unknown, token?: string) => {
    const r = await fetch(origin + path, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await r.json()) as any;
  };
  const token = (await json("POST", "/v2/user/login", { email: EMAIL, password: PASSWORD })).accessToken as string;
  const projectId = (await json("POST", "/v2/projects", { name: "Media" }, token)).id as string;
  const { port } = new URL(origin);
  return {
    server,
    origin,
    pid: server.proc.pid,
    token,
    projectId,
    async upload(name, bytes) {
      const fd = new FormData();
      fd.append("file", new Blob([bytes as BlobPart]), name);
      const t0 = performance.now();
      // Memory tests upload the same bytes many times on purpose: each keeps its own copy.
      const r = await fetch(`${origin}/v2/media?duplicate=true`, {
        method: "POST",
        body: fd,
        headers: { authorization: `Bearer ${token}`, "x-svc-project": projectId },
      });
      const body = await r.json();
      return { status: r.status, body, ms: performance.now() - t0 };
    },
    get(path, localAddress = "127.0.0.1") {
      const t0 = performance.now();
      return new Promise((resolve, reject) => {
        const req = http.request({ host: "127.0.0.1", port: Number(port), path, localAddress, agent: false }, (res) => {
          let bytes = 0;
          res.on("data", (c: Buffer) => {
            bytes += c.length;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, ms: performance.now() - t0, bytes }));
          res.on("error", reject);
        });
        req.on("error", reject);
        req.end();
      });
    },
    async stop() {
      await server.stop();
      data.remove();
    },
  };
}

/** A process's resident set size in MiB (Linux). */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : 0;
}

/** Samples a process's RSS every `everyMs` until stopped; `stop()` answers the peak in MiB. */
export function sampleRss(pid: number, everyMs = 10): { stop(): number } {
  let peak = rssMiB(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid));
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMiB(pid));
    },
  };
}

/** Waits until the RSS falls to `below` MiB or `withinMs` passes; answers the last reading. */
export async function settle(pid: number, below: number, withinMs: number): Promise<number> {
  const until = Date.now() + withinMs;
  let rss = rssMiB(pid);
  while (rss >= below && Date.now() < until) {
    await Bun.sleep(100);
    rss = rssMiB(pid);
  }
  return rss;
}
