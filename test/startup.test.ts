// The server process as an operator starts it: the first start on an empty data directory prints
// the owner's login and two read keys once, later starts print none, a bad setting or a busy port
// is one `capa:` line and exit 1, and SIGTERM stops it with exit code 0.
import { afterAll, describe, expect, test } from "bun:test";
import { startServer, tempDataDir } from "./spawn.ts";

const data = tempDataDir();
afterAll(() => data.remove());

const SECRET = /svc_(live|test)_[0-9A-Za-z]{32}/g;

describe("server start-up", () => {
  test("first start creates the owner and the demo project and prints the secrets once", async () => {
    const server = startServer({ CAPA_DATA_DIR: data.dir, PORT: "0" });
    const origin = await server.listening();
    const out = server.output();
    expect(out.match(/Capa first start/g)).toHaveLength(1);
    expect(out).toContain("owner@capa.local");
    const password = /Owner password +(\S+)/.exec(out)?.[1] ?? "";
    expect(password).toMatch(/^[0-9A-Za-z]{20}$/);
    const keys = new Set(out.match(SECRET));
    expect([...keys].map((k) => k.slice(0, 9)).sort()).toEqual(["svc_live_", "svc_test_"]);

    // The banner names the admin app, and a browser opening the origin is sent there.
    expect(out).toContain(`  Admin app         ${origin}/admin/  (sign in with this e-mail and password)\n`);
    const home = await fetch(`${origin}/`, { headers: { accept: "text/html" }, redirect: "manual" });
    expect([home.status, home.headers.get("location")]).toEqual([302, "/admin/"]);

    // The server answers, and the printed password signs the owner in.
    const page = await fetch(`${origin}/docs/errors/internal`);
    expect(page.status).toBe(200);
    const login = await fetch(`${origin}/v2/user/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "owner@capa.local", password }),
    });
    expect(login.status).toBe(200);
    expect(await server.stop()).toBe(0);
    expect(server.errors()).toBe("");
  });

  test("a second start on the same directory prints no credentials", async () => {
    const server = startServer({ CAPA_DATA_DIR: data.dir, PORT: "0" });
    const origin = await server.listening();
    expect((await fetch(`${origin}/docs/errors/internal`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    const out = server.output();
    expect(out).not.toContain("first start");
    expect(out).not.toContain("password");
    expect(out.match(SECRET)).toBeNull();
    expect(out.trim().split("\n")).toEqual([`Capa listening on ${origin}`]);
  });

  test("CAPA_ADMIN_EMAIL and CAPA_ADMIN_PASSWORD choose the owner; CAPA_DEMO=0 skips the demo", async () => {
    const dir = tempDataDir();
    try {
      const server = startServer({
        CAPA_DATA_DIR: dir.dir,
        PORT: "0",
        CAPA_DEMO: "0",
        CAPA_ADMIN_EMAIL: "boss@example.com",
        CAPA_ADMIN_PASSWORD: "boss-password-1",
      });
      const origin = await server.listening();
      const out = server.output();
      expect(out).toContain("boss@example.com");
      expect(out).not.toContain("boss-password-1");
      expect(out.match(SECRET)).toBeNull();
      const login = await fetch(`${origin}/v2/user/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "boss@example.com", password: "boss-password-1" }),
      });
      expect(login.status).toBe(200);
      expect(await server.stop()).toBe(0);
    } finally {
      dir.remove();
    }
  });

  // Each failure: exit 1, nothing on stdout, one line on stderr starting `capa:`, no stack trace.
  const failures: { name: string; env: () => Record<string, string>; says: RegExp }[] = [
    { name: "PORT=abc", env: () => ({ PORT: "abc" }), says: /^capa: PORT must be a whole number, got "abc"$/ },
    { name: "CAPA_ADMIN_EMAIL not an address", env: () => ({ PORT: "0", CAPA_ADMIN_EMAIL: "boss" }), says: /^capa: CAPA_ADMIN_EMAIL/ },
    {
      name: "CAPA_SMTP_URL not smtp(s)",
      env: () => ({ PORT: "0", CAPA_SMTP_URL: "https://mailer:hunter2@smtp.example.com", CAPA_MAIL_FROM: "capa@example.com" }),
      says: /^capa: CAPA_SMTP_URL must start with smtp:\/\/ or smtps:\/\/, got "https:\/\/"$/,
    },
    // Edge purging (test/edge/settings.test.ts has every refusal's whole line).
    {
      name: "CAPA_EDGE_PURGE with an unknown cache",
      env: () => ({ PORT: "0", CAPA_EDGE_PURGE: "akamai:abc", CAPA_EDGE_TOKEN: "edge-token-0123456789" }),
      says: /^capa: CAPA_EDGE_PURGE names an unknown cache "akamai"; use varnish, fastly or cloudflare$/,
    },
    {
      name: "CAPA_EDGE_PURGE with credentials",
      env: () => ({ PORT: "0", CAPA_EDGE_PURGE: "varnish:http://u:hunter2@cache.example.com", CAPA_EDGE_TOKEN: "edge-token-0123456789" }),
      says: /^capa: CAPA_EDGE_PURGE: a Varnish URL holds no user or password \(the token goes in CAPA_EDGE_TOKEN\); got "http:\/\/\*\*\*@cache.example.com"$/,
    },
    {
      name: "CAPA_EDGE_PURGE naming a private address without the allowance",
      env: () => ({ PORT: "0", CAPA_EDGE_PURGE: "varnish:http://192.168.1.20:6081", CAPA_EDGE_TOKEN: "edge-token-0123456789" }),
      says: /^capa: CAPA_EDGE_PURGE: 192.168.1.20 is a private address; set CAPA_EDGE_ALLOW_PRIVATE=1 to purge a Varnish on this machine or a private network$/,
    },
  ];
  test.each(failures)("refuses to start: $name", async ({ env, says }) => {
    const dir = tempDataDir();
    try {
      const server = startServer({ CAPA_DATA_DIR: dir.dir, ...env() });
      expect(await server.exited()).toBe(1);
      expect(server.output()).toBe("");
      const lines = server.errors().split("\n").filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(says);
    } finally {
      dir.remove();
    }
  });

  test("a port in use is one line, exit 1, and prints no secrets", async () => {
    const busy = Bun.serve({ hostname: "127.0.0.1", port: 0, reusePort: false, fetch: () => new Response("busy") });
    const dir = tempDataDir();
    try {
      const server = startServer({ CAPA_DATA_DIR: dir.dir, PORT: String(busy.port) });
      expect(await server.exited()).toBe(1);
      expect(server.output()).toBe("");
      expect(server.errors()).toBe(`capa: port ${busy.port} on 127.0.0.1 is in use; stop the other server or set PORT\n`);
      // The failed start created no owner, so the next start is still the first one.
      const retry = startServer({ CAPA_DATA_DIR: dir.dir, PORT: "0", CAPA_DEMO: "0" });
      await retry.listening();
      expect(retry.output()).toContain("Capa first start");
      expect(await retry.stop()).toBe(0);
    } finally {
      busy.stop(true);
      dir.remove();
    }
  });

  test("SIGTERM lets an in-flight request finish, then exits 0", async () => {
    const server = startServer({ CAPA_DATA_DIR: data.dir, PORT: "0" });
    const origin = await server.listening();
    // The request's body arrives in two parts, with the SIGTERM in between, so the request is
    // certainly in flight when the stop begins.
    const body = JSON.stringify({ email: "owner@capa.local", password: "wrong-password" });
    let send!: (rest: string) => void;
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(body.slice(0, 10)));
        send = (rest) => {
          c.enqueue(new TextEncoder().encode(rest));
          c.close();
        };
      },
    });
    const inFlight = fetch(`${origin}/v2/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: stream });
    await Bun.sleep(100);
    server.proc.kill("SIGTERM");
    await Bun.sleep(100);
    expect(server.proc.exitCode).toBeNull();
    send(body.slice(10));
    expect((await inFlight).status).toBe(401);
    expect(await server.exited()).toBe(0);
    expect(
      await fetch(`${origin}/docs/errors/internal`).then(
        () => "answered",
        () => "refused",
      ),
    ).toBe("refused");
  });
});
