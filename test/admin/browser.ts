// What the admin browser tests share: the real app on a socket (demo project, known owner
// password), one headless Chromium with web security on (scripts/chromium.ts),
// sign-in as a person does it, axe-core checks, and screenshots under .tmp/screens/.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { AxeBuilder } from "@axe-core/playwright";
import { expect } from "bun:test";
import { createApp, type AppDeps, type CapaApp } from "../../src/app.ts";
import { testConfig, type Config } from "../../src/config.ts";
import { bootstrap } from "../../src/domain/bootstrap.ts";
import { buildAdmin } from "../../scripts/build-admin.ts";
import { launchChromium } from "../../scripts/chromium.ts";

export const OWNER = { email: "owner@capa.local", password: "owner-password-1" };
export const SCREENS = join(import.meta.dir, "..", "..", ".tmp", "screens");

/** A running server with the demo project and a browser to drive it. */
export interface BrowserEnv {
  capa: CapaApp;
  origin: string;
  browser: Browser;
  demoProjectId: string;
  /** A fresh page in a fresh context (its own storage), 1280x800 unless told otherwise. */
  page(opts?: { width?: number; height?: number; colorScheme?: "light" | "dark"; timezoneId?: string }): Promise<Page>;
  /** A bearer token of the owner, for arranging data over /v2 as a script would. */
  token(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Builds the app if needed, starts the server on a free port and launches Chromium; `over` changes
 * the config, `deps` may bring a clock (a ManualClock lets a test move the server's time, say to
 * make a scheduled action due, without sleeping).
 */
export async function startBrowserEnv(over: Partial<Config> = {}, deps: AppDeps = {}): Promise<BrowserEnv> {
  await buildAdmin({ quiet: true });
  mkdirSync(SCREENS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), "capa-admin-"));
  const capa = createApp(testConfig(dir, { demo: true, adminPassword: OWNER.password, ...over }), deps);
  const first = bootstrap(capa.services)!;
  capa.app.listen({ port: 0, hostname: "127.0.0.1" });
  const origin = `http://127.0.0.1:${capa.app.server!.port}`;
  const browser = await launchChromium();
  const contexts: { close(): Promise<void> }[] = [];
  return {
    capa,
    origin,
    browser,
    demoProjectId: first.demo!.project.id,
    async page(opts = {}) {
      const context = await browser.newContext({
        viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
        colorScheme: opts.colorScheme ?? "light",
        reducedMotion: "reduce",
        ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
      });
      contexts.push(context);
      // Well inside the test's own timeout, so a failed wait fails the test, not the browser.
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      // This Chromium (one process) shares one cookie jar between contexts: each page starts signed out.
      await (await context.newCDPSession(page)).send("Network.clearBrowserCookies");
      page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
      page.on("console", (m) => {
        if (m.type() === "error") console.error(`console: ${m.text()}`);
      });
      return page;
    },
    async token() {
      const res = await fetch(`${origin}/v2/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(OWNER) });
      return ((await res.json()) as { accessToken: string }).accessToken;
    },
    async close() {
      // This Chromium runs as one process and may already have ended with its last context.
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await capa.app.stop(true);
      capa.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Opens `path` (a deep link is fine) and signs in on the sign-in screen it shows. */
export async function signIn(page: Page, origin: string, path = "/admin/"): Promise<void> {
  await page.goto(origin + path);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await signedIn(page);
}

/** Waits for the shell: the rail, or at phone widths the top bar's Menu button. */
export async function signedIn(page: Page): Promise<void> {
  await page
    .getByRole("navigation", { name: "Workspace" })
    .or(page.getByRole("button", { name: "Menu", exact: true }))
    .first()
    .waitFor();
}

/**
 * One of the rail's navigations (`Workspace`, or `Screens` for the project's screens). At phone
 * widths the rail is in the menu dialog, which this opens first; it closes itself once a link
 * in it is followed.
 */
export async function rail(page: Page, name: "Workspace" | "Screens" = "Workspace"): Promise<Locator> {
  const menu = page.getByRole("button", { name: "Menu", exact: true });
  if ((await menu.count()) > 0 && (await menu.getAttribute("aria-expanded")) !== "true") {
    await menu.click();
    await page.getByRole("dialog", { name: "Menu" }).waitFor();
  }
  return page.getByRole("navigation", { name });
}

/** Asserts that axe-core finds no serious or critical violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5) }));
  expect(bad).toEqual([]);
}

/** Saves a full-page screenshot as .tmp/screens/<name>.png for people to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENS, `${name}.png`), fullPage: true });
}

/** Calls /v2 as the owner, in the demo project. */
export async function v2(env: BrowserEnv, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(env.origin + path, {
    method,
    headers: { authorization: `Bearer ${await env.token()}`, "x-svc-project": env.demoProjectId, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}
