// Webhook endpoint management under /v2/webhooks (decisions.md section 6; interface.md, Webhook
// endpoint and Endpoint rules): create, list, read, edit, delete, rotate, permissions, refusals.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { addMember } from "../api/helpers.ts";
import { LOCAL_RECEIVER } from "../../src/domain/webhooks/endpoint-checks.ts";

const T0 = "2026-11-21T12:00:00.000Z";
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe("webhook endpoints", () => {
  let h: Harness;
  let token: string;
  let pid: string;
  beforeAll(async () => {
    // Private targets are allowed here so URLs need no DNS; the refusals have their own block.
    h = startApp({ webhookAllowPrivate: true });
    ({ token } = await withOwner(h));
    pid = (await h.json("GET", "/v2/projects", { token })).body.data[0].id;
  });
  afterAll(() => h.close());

  test("create answers 201 with the whole secret once and the three default events", async () => {
    const r = await h.json("POST", "/v2/webhooks", { token, body: { url: "https://hooks.example.com/capa", description: "Site rebuild" } });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body)).toEqual([
      "id",
      "url",
      "description",
      "events",
      "includeContent",
      "active",
      "disabledAt",
      "disabledReason",
      "failingSince",
      "secretPrefix",
      "secretRotatedAt",
      "previousSecretExpiresAt",
      "createdAt",
      "updatedAt",
      "secret",
    ]);
    expect(r.body).toMatchObject({
      url: "https://hooks.example.com/capa",
      description: "Site rebuild",
      events: ["instance.published", "instance.unpublished", "instance.deleted"],
      includeContent: false,
      active: true,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
      secretRotatedAt: null,
      previousSecretExpiresAt: null,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(r.body.secret).toMatch(SECRET);
    // The secret's base64 part is 32 random bytes.
    expect(Buffer.from(r.body.secret.slice(6), "base64").byteLength).toBe(32);
    expect(r.body.secretPrefix).toBe(r.body.secret.slice(0, 10));

    const got = await h.json("GET", `/v2/webhooks/${r.body.id}`, { token });
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect(JSON.stringify(got.body)).not.toContain(r.body.secret.slice(10));
    expect(got.body.secretPrefix).toBe(r.body.secretPrefix);
    const list = await h.json("GET", "/v2/webhooks", { token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(r.body.id);
    expect(JSON.stringify(list.body)).not.toContain(r.body.secret.slice(10));
  });

  test("create takes events, includeContent and description; two endpoints have different secrets", async () => {
    const a = await h.json("POST", "/v2/webhooks", {
      token,
      body: { url: "https://a.example.com/", events: ["model.published", "model.deleted", "model.published"], includeContent: true },
    });
    expect(a.status).toBe(201);
    expect(a.body.events).toEqual(["model.published", "model.deleted"]);
    expect(a.body.includeContent).toBe(true);
    expect(a.body.description).toBeNull();
    const b = await h.json("POST", "/v2/webhooks", { token, body: { url: "https://b.example.com/", events: ["schedule.failed"] } });
    expect(b.body.secret).not.toBe(a.body.secret);
  });

  test.each([
    ["no url", {}, "url"],
    ["url not a string", { url: 5 }, "url"],
    ["url not absolute", { url: "/hooks" }, "url"],
    ["http url", { url: "http://hooks.example.com/" }, "url"],
    ["ftp url", { url: "ftp://hooks.example.com/" }, "url"],
    ["credentials in url", { url: "https://user:pw@hooks.example.com/" }, "url"],
    ["url too long", { url: `https://hooks.example.com/${"a".repeat(2100)}` }, "url"],
    ["events empty", { url: "https://x.example.com/", events: [] }, "events"],
    ["events not a list", { url: "https://x.example.com/", events: "instance.published" }, "events"],
    ["unknown event", { url: "https://x.example.com/", events: ["instance.published", "entry.saved"] }, "events[1]"],
    ["webhook.test is not subscribable", { url: "https://x.example.com/", events: ["webhook.test"] }, "events[0]"],
    ["includeContent not boolean", { url: "https://x.example.com/", includeContent: "yes" }, "includeContent"],
    ["description not text", { url: "https://x.example.com/", description: 3 }, "description"],
    ["description too long", { url: "https://x.example.com/", description: "d".repeat(501) }, "description"],
  ])("create refuses %s with 400 invalid_body naming the field", async (_name, body, field) => {
    const r = await h.json("POST", "/v2/webhooks", { token, body });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_body");
    expect(r.body.field).toBe(field);
    expect(typeof r.body.error).toBe("string");
  });

  test("malformed JSON is 400 invalid_json", async () => {
    const r = await h.json("POST", "/v2/webhooks", { token, raw: "{", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_json");
  });

  test("PATCH edits events, url, includeContent, description and active", async () => {
    const made = await h.json("POST", "/v2/webhooks", { token, body: { url: "https://edit.example.com/" } });
    h.clock.advance(1000);
    const r = await h.json("PATCH", `/v2/webhooks/${made.body.id}`, {
      token,
      body: { url: "https://edit2.example.com/in", events: ["instance.published"], includeContent: true, description: "Edited" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      url: "https://edit2.example.com/in",
      events: ["instance.published"],
      includeContent: true,
      description: "Edited",
      active: true,
    });
    expect(r.body.updatedAt).toBe("2026-11-21T12:00:01.000Z");
    expect(r.body.secret).toBeUndefined();
    const off = await h.json("PATCH", `/v2/webhooks/${made.body.id}`, { token, body: { active: false, description: null } });
    expect(off.body).toMatchObject({ active: false, description: null, disabledReason: null, disabledAt: "2026-11-21T12:00:01.000Z" });
    const on = await h.json("PATCH", `/v2/webhooks/${made.body.id}`, { token, body: { active: true } });
    expect(on.body).toMatchObject({ active: true, disabledAt: null, disabledReason: null });
    const same = await h.json("PATCH", `/v2/webhooks/${made.body.id}`, { token, body: {} });
    expect(same.status).toBe(200);
    expect(same.body.url).toBe("https://edit2.example.com/in");
  });

  test.each([
    ["http url", { url: "http://x.example.com/" }, "url"],
    ["empty events", { events: [] }, "events"],
    ["active not boolean", { active: "no" }, "active"],
    ["includeContent null", { includeContent: null }, "includeContent"],
  ])("PATCH refuses %s with 400 invalid_body", async (_n, body, field) => {
    const made = await h.json("POST", "/v2/webhooks", { token, body: { url: "https://p.example.com/" } });
    const r = await h.json("PATCH", `/v2/webhooks/${made.body.id}`, { token, body });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "invalid_body", field });
  });

  test("rotate-secret answers the new secret once; the old one signs beside it for graceHours", async () => {
    const made = await h.json("POST", "/v2/webhooks", { token, body: { url: "https://rot.example.com/" } });
    const r = await h.json("POST", `/v2/webhooks/${made.body.id}/rotate-secret`, { token, body: { graceHours: 2 } });
    expect(r.status).toBe(200);
    expect(r.body.secret).toMatch(SECRET);
    expect(r.body.secret).not.toBe(made.body.secret);
    expect(r.body.secretRotatedAt).toBe(new Date(h.clock.now()).toISOString());
    expect(r.body.previousSecretExpiresAt).toBe(new Date(h.clock.now() + 2 * 3_600_000).toISOString());
    const got = await h.json("GET", `/v2/webhooks/${made.body.id}`, { token });
    expect(got.body.secret).toBeUndefined();
    expect(got.body.secretPrefix).toBe(r.body.secret.slice(0, 10));
    // Default grace is 24 hours; 0 retires the old secret at once.
    const d = await h.json("POST", `/v2/webhooks/${made.body.id}/rotate-secret`, { token });
    expect(d.body.previousSecretExpiresAt).toBe(new Date(h.clock.now() + 24 * 3_600_000).toISOString());
    const z = await h.json("POST", `/v2/webhooks/${made.body.id}/rotate-secret`, { token, body: { graceHours: 0 } });
    expect(z.body.previousSecretExpiresAt).toBeNull();
  });

  test.each([[-1], [169], [1.5], ["24"]])("rotate-secret refuses graceHours %p with 400 invalid_body", async (graceHours) => {
    const made = await h.json("POST", "/v2/webhooks", { token, body: { url: "https://rot2.example.com/" } });
    const r = await h.json("POST", `/v2/webhooks/${made.body.id}/rotate-secret`, { token, body: { graceHours } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "invalid_body", field: "graceHours" });
  });

  test("DELETE answers 204, then the endpoint is 404 not_found on every route", async () => {
    const made = await h.json("POST", "/v2/webhooks", { token, body: { url: "https://del.example.com/" } });
    const r = await h.req("DELETE", `/v2/webhooks/${made.body.id}`, { token });
    expect(r.status).toBe(204);
    for (const [method, path] of [
      ["GET", ""],
      ["PATCH", ""],
      ["DELETE", ""],
      ["POST", "/rotate-secret"],
      ["POST", "/test"],
      ["GET", "/deliveries"],
    ] as const) {
      const g = await h.json(method, `/v2/webhooks/${made.body.id}${path}`, { token, body: method === "GET" || method === "DELETE" ? undefined : {} });
      expect(g.status).toBe(404);
      expect(g.body).toEqual({ error: "No webhook endpoint with that id in this project.", code: "not_found" });
    }
  });

  test("an id that is not a UUID, or another project's endpoint, is 404 not_found", async () => {
    expect((await h.json("GET", "/v2/webhooks/nope", { token })).status).toBe(404);
    const made = await h.json("POST", "/v2/webhooks", { token, body: { url: "https://mine.example.com/" } });
    const other = await withOwner(h, "other@example.com", "other-password-1");
    const r = await h.json("GET", `/v2/webhooks/${made.body.id}`, { token: other.token });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("not_found");
    expect((await h.json("GET", "/v2/webhooks", { token: other.token })).body).toEqual({ data: [] });
  });

  test("a delivery of an unknown id is 404 not_found; redeliver of it too", async () => {
    const made = await h.json("POST", "/v2/webhooks", { token, body: { url: "https://dl.example.com/" } });
    const r = await h.json("POST", `/v2/webhooks/${made.body.id}/deliveries/0190a0b0-0000-7000-8000-000000000000/redeliver`, { token });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: "No delivery with that id for this webhook endpoint.", code: "not_found" });
  });

  test.each([
    ["limit 0", "?limit=0", "limit"],
    ["limit 101", "?limit=101", "limit"],
    ["page 0", "?page=0", "page"],
    ["unknown status", "?status=done", "status"],
  ])("deliveries refuses %s with 400 invalid_body", async (_n, qs, field) => {
    const made = await h.json("POST", "/v2/webhooks", { token, body: { url: "https://q.example.com/" } });
    const r = await h.json("GET", `/v2/webhooks/${made.body.id}/deliveries${qs}`, { token });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "invalid_body", field });
  });

  test("without a token: 401 Authentication token required; a key on /v2: 401 Invalid API key", async () => {
    const a = await h.json("GET", "/v2/webhooks");
    expect(a.status).toBe(401);
    expect(a.body).toEqual({ error: "Authentication token required" });
    const b = await h.json("POST", "/v2/webhooks", {
      headers: { "x-api-key": "svc_live_abcdefabcdefabcdefabcdefabcdefab" },
      body: { url: "https://k.example.com/" },
    });
    expect(b.status).toBe(401);
    expect(b.body).toEqual({ error: "Invalid API key" });
  });

  test("a person in no project is 400 no_project; an unknown sub-route is 404 route_not_found", async () => {
    createUser(h.capa.services, { email: "lonely@example.com", password: "lonely-password-1" });
    const t = (await h.json("POST", "/v2/user/login", { body: { email: "lonely@example.com", password: "lonely-password-1" } })).body.accessToken;
    const r = await h.json("GET", "/v2/webhooks", { token: t });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "No project is chosen: send x-svc-project or open a project first.", code: "no_project" });
    const made = await h.json("POST", "/v2/webhooks", { token, body: { url: "https://nr.example.com/" } });
    const n = await h.json("POST", `/v2/webhooks/${made.body.id}/replay`, { token });
    expect(n.status).toBe(404);
    expect(n.body.code).toBe("route_not_found");
  });

  test("developers manage webhooks; editors and viewers are refused with the roles that may", async () => {
    for (const [email, role] of [
      ["dev@example.com", "developer"],
      ["ed@example.com", "editor"],
      ["vi@example.com", "viewer"],
    ]) {
      const m = await addMember(h, token, pid, email, role, "member-password-1");
      expect(m.status).toBe(201);
    }
    const sign = async (email: string) =>
      (await h.json("POST", "/v2/user/login", { body: { email, password: "member-password-1" } })).body.accessToken as string;
    const headers = { "x-svc-project": pid };
    const dev = await sign("dev@example.com");
    const made = await h.json("POST", "/v2/webhooks", { token: dev, headers, body: { url: "https://dev.example.com/" } });
    expect(made.status).toBe(201);
    for (const email of ["ed@example.com", "vi@example.com"]) {
      const t = await sign(email);
      const current = email.startsWith("ed") ? "editor" : "viewer";
      const cases: [string, string, string][] = [
        ["GET", "/v2/webhooks", "webhook:read"],
        ["POST", "/v2/webhooks", "webhook:create"],
        ["PATCH", `/v2/webhooks/${made.body.id}`, "webhook:update"],
        ["POST", `/v2/webhooks/${made.body.id}/rotate-secret`, "webhook:update"],
        ["POST", `/v2/webhooks/${made.body.id}/test`, "webhook:update"],
        ["GET", `/v2/webhooks/${made.body.id}/deliveries`, "webhook:read"],
        ["DELETE", `/v2/webhooks/${made.body.id}`, "webhook:delete"],
      ];
      for (const [method, path] of cases) {
        const r = await h.json(method, path, {
          token: t,
          headers,
          body: method === "GET" || method === "DELETE" ? undefined : { url: "https://x.example.com/" },
        });
        expect(r.status).toBe(403);
        expect(r.body).toEqual({ error: "Insufficient permissions", required: ["owner", "admin", "developer"], current });
      }
    }
  });
});

describe("private, loopback and link-local targets (CAPA_WEBHOOK_ALLOW_PRIVATE off)", () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = startApp({ webhookAllowPrivate: false });
    ({ token } = await withOwner(h));
  });
  afterAll(() => h.close());

  test.each([
    ["https://127.0.0.1/hook", "127.0.0.1 is a loopback address"],
    ["https://127.8.9.10:8443/hook", "127.8.9.10 is a loopback address"],
    ["https://10.1.2.3/hook", "10.1.2.3 is a private address"],
    ["https://172.20.0.1/hook", "172.20.0.1 is a private address"],
    ["https://192.168.1.1/hook", "192.168.1.1 is a private address"],
    ["https://169.254.169.254/latest/meta-data", "169.254.169.254 is a link-local address"],
    ["https://0.0.0.0/hook", "0.0.0.0 is an unspecified address"],
    ["https://[::1]/hook", "::1 is a loopback address"],
    ["https://[fe80::1]/hook", "fe80::1 is a link-local address"],
    ["https://[fd00::5]/hook", "fd00::5 is a private (unique local) address"],
    ["https://[::ffff:127.0.0.1]/hook", "::ffff:7f00:1 is a loopback address"],
    ["https://2130706433/hook", "127.0.0.1 is a loopback address"],
    ["https://0x7f.1/hook", "127.0.0.1 is a loopback address"],
  ])("create refuses %s with 400 webhook_url_refused", async (url, why) => {
    const r = await h.json("POST", "/v2/webhooks", { token, body: { url } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: `The URL is refused: ${why}. ${LOCAL_RECEIVER}`, code: "webhook_url_refused", field: "url" });
  });

  test("a name that resolves to 127.0.0.1 (localhost) is refused after DNS resolution", async () => {
    const r = await h.json("POST", "/v2/webhooks", { token, body: { url: "https://localhost:8443/hook" } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("webhook_url_refused");
    expect(r.body.error).toMatch(
      /^The URL is refused: localhost (resolves to (127\.0\.0\.1|::1), which is a loopback address|is a loopback name)\. To send to a receiver on this machine or a private network, start Capa with CAPA_WEBHOOK_ALLOW_PRIVATE=1 \(the URL must still be https\)\.$/,
    );
  });

  test("an edit to a private URL is refused and changes nothing", async () => {
    const made = await h.json("POST", "/v2/webhooks", { token, body: { url: "https://8.8.8.8/hook" } });
    expect(made.status).toBe(201);
    const r = await h.json("PATCH", `/v2/webhooks/${made.body.id}`, { token, body: { url: "https://192.168.0.10/", description: "x" } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: `The URL is refused: 192.168.0.10 is a private address. ${LOCAL_RECEIVER}`, code: "webhook_url_refused", field: "url" });
    const got = await h.json("GET", `/v2/webhooks/${made.body.id}`, { token });
    expect(got.body).toMatchObject({ url: "https://8.8.8.8/hook", description: null });
  });

  test("a public address and a name that does not resolve yet are accepted", async () => {
    expect((await h.json("POST", "/v2/webhooks", { token, body: { url: "https://93.184.215.14/hook" } })).status).toBe(201);
    expect((await h.json("POST", "/v2/webhooks", { token, body: { url: "https://hooks.capa.invalid/x" } })).status).toBe(201);
  });
});
