// Hardening item 13: the key cache forgets at once what another process changed. The server's
// own changes evict through the change bus; a subscription turned off by `capa project
// subscription` (a separate process) or a key revoked through another connection to
// control.sqlite is seen at the next request, with no clock advance (SQLite's data_version).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { setSubscription } from "../../src/domain/projects/service.ts";
import { setActive } from "../../src/domain/keys/service.ts";
import { runCli } from "../spawn.ts";
import { call, expectApiError } from "./helpers.ts";

const KEYS = "/v2/tenants/api-keys";

let h: Harness;
let token: string;
let projectId: string;
let slug: string;

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
  slug = o.project.slug;
});
afterAll(() => h.close());

const mint = async () => {
  const r = await h.json("POST", KEYS, { token, headers: { "x-svc-project": projectId }, body: { name: "Reader", scopes: ["instance:read"] } });
  expect(r.status).toBe(201);
  return r.body as { id: string; apiKey: string };
};
const me = (key: string) => call(h, "GET", "/api/me", { headers: { "x-api-key": key } });

describe("changes by another process reach the key cache at once", () => {
  test("in process: setSubscription (what the CLI calls) answers 402 at the next read", async () => {
    const k = await mint();
    expect((await me(k.apiKey)).status).toBe(200);
    setSubscription(h.capa.services, projectId, false);
    try {
      expectApiError(await me(k.apiKey), { status: 402, type: "payment", code: "subscription_required", keyId: k.id, keyed: true });
    } finally {
      setSubscription(h.capa.services, projectId, true);
    }
    expect((await me(k.apiKey)).status).toBe(200);
  });

  test("capa project subscription --active false in a separate process: the next read answers 402, then 200 after true", async () => {
    const k = await mint();
    const t0 = h.clock.now();
    expect((await me(k.apiKey)).status).toBe(200);
    const off = await runCli(["project", "subscription", "--project", slug, "--active", "false"], { CAPA_DATA_DIR: h.dir });
    expect(off).toMatchObject({ code: 0, stdout: `Subscription of ${slug} is now inactive\n` });
    expectApiError(await me(k.apiKey), { status: 402, type: "payment", code: "subscription_required", keyId: k.id, keyed: true });
    const on = await runCli(["project", "subscription", "--project", slug, "--active", "true"], { CAPA_DATA_DIR: h.dir });
    expect(on.code).toBe(0);
    expect((await me(k.apiKey)).status).toBe(200);
    expect(h.clock.now()).toBe(t0);
  });

  test("a key revoked through another connection to control.sqlite answers 401 invalid_key at the next read", async () => {
    const k = await mint();
    expect((await me(k.apiKey)).status).toBe(200);
    const other = createApp(testConfig(h.dir));
    try {
      setActive(other.services, projectId, { kind: "cli" }, k.id, false);
    } finally {
      other.close();
    }
    expectApiError(await me(k.apiKey), { status: 401, type: "authentication", code: "invalid_key", param: "x-api-key", keyed: true });
  });
});
