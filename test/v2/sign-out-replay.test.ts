// A stolen access token replayed from another address (issue 24, "Bad input"): over a real socket,
// a token signed in from 127.0.0.1 and sent from 127.0.0.2 reads while its session lives (tokens
// are not bound to an address) and is refused with 401 invalid_token once its session ended by
// sign-out, by sign out everywhere, or by a password change.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { request } from "node:http";
import { startApp, withOwner, type Harness } from "../harness.ts";

const REFUSED = { error: "Invalid or expired token", code: "invalid_token" };
const CREDS = { email: "owner@example.com", password: "owner-password-1" };

let h: Harness;
let origin: string;
let port: number;
beforeAll(async () => {
  h = startApp();
  await withOwner(h);
  h.capa.app.listen({ port: 0, hostname: "127.0.0.1" });
  port = h.capa.app.server!.port!;
  origin = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await h.capa.app.stop(true);
  h.close();
});

/** POST as a client on 127.0.0.1 (fetch's own address). */
async function post(path: string, body: unknown, token?: string) {
  const res = await fetch(origin + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

/** GET /v2/projects with `token`, sent from 127.0.0.2: [status, body]. */
function fromOtherAddress(token: string): Promise<[number, unknown]> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/v2/projects", localAddress: "127.0.0.2", headers: { authorization: `Bearer ${token}` } }, (res) => {
      let text = "";
      res.on("data", (c) => {
        text += c;
      });
      res.on("end", () => resolve([res.statusCode!, res.statusCode === 200 ? "reads" : JSON.parse(text)]));
    });
    req.on("error", reject);
    req.end();
  });
}

async function signIn() {
  const r = await post("/v2/user/login", CREDS);
  expect(r.status).toBe(200);
  return r.body as { accessToken: string; refreshToken: string };
}

describe("a token replayed from another address", () => {
  test("after sign-out: 401 invalid_token", async () => {
    const s = await signIn();
    expect(await fromOtherAddress(s.accessToken)).toEqual([200, "reads"]);
    expect((await post("/v2/user/logout", { refreshToken: s.refreshToken })).status).toBe(204);
    expect(await fromOtherAddress(s.accessToken)).toEqual([401, REFUSED]);
  });

  test("after sign out everywhere: 401 invalid_token for every session", async () => {
    const stolen = await signIn();
    const mine = await signIn();
    expect(await fromOtherAddress(stolen.accessToken)).toEqual([200, "reads"]);
    expect((await post("/v2/user/logout", { all: true }, mine.accessToken)).status).toBe(204);
    expect(await fromOtherAddress(stolen.accessToken)).toEqual([401, REFUSED]);
    expect(await fromOtherAddress(mine.accessToken)).toEqual([401, REFUSED]);
  });

  test("after a password change: 401 invalid_token", async () => {
    const stolen = await signIn();
    const mine = await signIn();
    const changed = await post("/v2/user/password", { currentPassword: CREDS.password, newPassword: "owner-password-2" }, mine.accessToken);
    expect(changed.status).toBe(200);
    expect(await fromOtherAddress(stolen.accessToken)).toEqual([401, REFUSED]);
    // The device that changed it holds a new session, which reads from anywhere.
    expect(await fromOtherAddress(changed.body.accessToken)).toEqual([200, "reads"]);
  });
});
