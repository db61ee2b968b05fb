// Signing out in a real browser (issue 24 item 3): `Sign out` ends this session on the server,
// its access token included; `Sign out everywhere` in the account menu ends every session of the
// person: this browser's, another browser's (its cookie no longer refreshes) and a script's.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, OWNER, screenshot, signIn, startBrowserEnv, type BrowserEnv } from "./browser.ts";

const REFUSED = { error: "Invalid or expired token", code: "invalid_token" };

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  await env?.close();
});

/** Signs in on `page`, answering the access token the app received (it keeps it in memory only). */
async function signInHolding(page: Page): Promise<string> {
  const answer = page.waitForResponse((r) => r.url() === `${env.origin}/v2/user/login`);
  await signIn(page, env.origin);
  return ((await (await answer).json()) as { accessToken: string }).accessToken;
}

/** What GET /v2/projects answers a token: [status, body]. */
async function reads(token: string): Promise<[number, unknown]> {
  const res = await fetch(`${env.origin}/v2/projects`, { headers: { authorization: `Bearer ${token}` } });
  return [res.status, res.status === 200 ? "reads" : await res.json()];
}

describe("signing out", () => {
  test("Sign out ends this session's access token on the server; another session stays", async () => {
    const page = await env.page();
    const token = await signInHolding(page);
    const script = await env.token();
    expect(await reads(token)).toEqual([200, "reads"]);
    const done = page.waitForResponse((r) => r.url() === `${env.origin}/v2/user/logout`);
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect((await done).status()).toBe(204);
    expect(await reads(token)).toEqual([401, REFUSED]);
    expect(await reads(script)).toEqual([200, "reads"]);
  }, 60_000);

  test("Sign out everywhere, next to Sign out, ends every session of the person", async () => {
    const page = await env.page();
    const token = await signInHolding(page);
    // Other devices: another browser's cookie session and a script's. (The test's Chromium shares
    // one cookie jar between its pages, so the other browser signs in over HTTP as the app does.)
    const other = await fetch(`${env.origin}/v2/user/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-capa-session": "cookie" },
      body: JSON.stringify(OWNER),
    });
    const otherToken = ((await other.json()) as { accessToken: string }).accessToken;
    const otherCookie = /^capa_refresh=([^;]*)/.exec(other.headers.get("set-cookie") ?? "")![1]!;
    const script = await env.token();

    // It sits in the account menu at the foot of the rail, after Sign out.
    const menu = page.getByRole("complementary", { name: "Sidebar" });
    const names = await menu.getByRole("button").allTextContents();
    expect(names.slice(names.indexOf("Sign out"))).toEqual(["Sign out", "Sign out everywhere"]);
    await expectAccessible(page);
    await screenshot(page, "sign-out-everywhere");

    const sent = page.waitForRequest((r) => r.url() === `${env.origin}/v2/user/logout`);
    await page.getByRole("button", { name: "Sign out everywhere", exact: true }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    const request = await sent;
    expect([request.postDataJSON(), request.headers()["x-capa-csrf"], (await request.response())!.status()]).toEqual([{ all: true }, "1", 204]);
    expect(new URL(page.url()).pathname).toBe("/admin/sign-in");
    await expect(page.context().cookies()).resolves.toEqual([]);

    // Every token of the person is refused: this browser's, the other browser's, the script's; the
    // other browser's cookie no longer refreshes.
    for (const t of [token, otherToken, script]) expect(await reads(t)).toEqual([401, REFUSED]);
    const refresh = await fetch(`${env.origin}/v2/user/refresh-token`, {
      method: "POST",
      headers: { cookie: `capa_refresh=${otherCookie}`, "x-capa-csrf": "1" },
    });
    expect([refresh.status, await refresh.json()]).toEqual([401, { error: "The refresh token is not valid.", code: "invalid_token" }]);
    // A reload stays signed out; signing in again works as before.
    await page.reload();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await signIn(page, env.origin);
  }, 90_000);
});
