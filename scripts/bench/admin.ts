// `bench admin`: the admin app in a real browser (the Chromium of @sparticuz/chromium) against a
// server on a socket: from a click on a model in the rail to 25 rendered rows of a 100,000-entry
// model, the compressed bytes of the first screen, and the time from a keystroke to the next frame
// in an entry of 60 fields. Also the management list's keyset page 4,000 against page 1.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { launchChromium } from "../chromium.ts";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { createModel } from "../../src/domain/models/service.ts";
import { createEntry } from "../../src/domain/entries/service.ts";
import { listMembers, setCurrentProject } from "../../src/domain/projects/service.ts";
import { setPassword } from "../../src/domain/users/service.ts";
import { buildAdmin } from "../build-admin.ts";
import { seedBig } from "./seed.ts";
import type { Figure } from "./entries.ts";
import { measureTyping, stripScripts } from "./typing.ts";

const fmt = (n: number, d = 0) => n.toFixed(d);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

async function signIn(page: Page, origin: string, email: string, password: string): Promise<void> {
  await page.goto(`${origin}/admin/`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Post" }).waitFor();
}

export async function benchAdmin(): Promise<Figure[]> {
  const manifest = await buildAdmin({ quiet: true });
  const dir = mkdtempSync(join(tmpdir(), "capa-bench-admin-"));
  const capa = createApp(testConfig(dir));
  const seed = seedBig(capa, 100_000, 100);
  const s = capa.services;
  const owner = listMembers(s, seed.projectId)[0]!;
  const password = "bench-password-1";
  setPassword(s, owner.userId, password);
  setCurrentProject(s, owner.userId, seed.projectId);
  // An entry of 60 text fields for the typing figure.
  const h = s.projects.get(seed.projectId);
  const wide = createModel(s, h, {
    name: "Wide",
    namespace: "wide",
    fields: Array.from({ length: 60 }, (_, i) => ({ namespace: `f${i}`, label: `Field ${i}`, type: "string" })),
  });
  const wideEntry = createEntry(s, h, `user:${owner.userId}`, { model: wide.namespace, data: { f0: "start" } });
  capa.app.listen({ port: 0, hostname: "127.0.0.1" });
  const origin = `http://127.0.0.1:${capa.app.server!.port}`;
  const browser = await launchChromium();
  const out: Figure[] = [];
  try {
    // Navigation to a rendered list: each round reloads the app (a new JS heap, so no cached
    // answers) and signs in.
    const times: number[] = [];
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    // Every round downloads what a first visit does (the timed part starts after sign-in, once the files are in).
    await (await context.newCDPSession(page)).send("Network.setCacheDisabled", { cacheDisabled: true });
    let firstScreenBytes = 0;
    page.on("requestfinished", async (r) => {
      if (r.url().includes("/admin/assets/")) firstScreenBytes += (await r.sizes()).responseBodySize;
    });
    for (let round = 0; round < 12; round++) {
      // Without the session cookie every round starts at the sign-in screen.
      await context.clearCookies();
      await signIn(page, origin, owner.email, password);
      const t0 = performance.now();
      await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Post" }).click();
      await page.getByRole("table").getByRole("row").nth(25).waitFor();
      times.push(performance.now() - t0);
      page.removeAllListeners("requestfinished");
    }
    // The first round warms the server's caches and the browser; it is left out.
    const nav = times.slice(2);
    out.push({
      figure: "admin: click on a model to 25 rendered rows, 100k entries, p50 ms (target < 800)",
      value: fmt(pct(nav, 50)),
      baseline: "800",
      ratio: (pct(nav, 50) / 800).toFixed(2),
    });
    out.push({ figure: "admin: same, p95 ms", value: fmt(pct(nav, 95)), baseline: "800", ratio: (pct(nav, 95) / 800).toFixed(2) });
    const budget = manifest.assets.filter((a) => manifest.initial.includes(a.path)).reduce((n, a) => n + a.brotli, 0);
    out.push({
      figure: "admin: JS+CSS of sign-in plus the list over the wire, KB (target < 250)",
      value: (firstScreenBytes / 1024).toFixed(1),
      baseline: "250",
      ratio: (firstScreenBytes / 1024 / 250).toFixed(2),
    });
    out.push({
      figure: "admin: the same from the build manifest (brotli), KB",
      value: (budget / 1024).toFixed(1),
      baseline: "250",
      ratio: (budget / 1024 / 250).toFixed(2),
    });

    // Typing: main-thread work per keystroke and keydown to the next frame (scripts/bench/typing.ts),
    // in the app and, as the baseline, in the same page with its scripts removed.
    await context.clearCookies();
    await signIn(page, origin, owner.email, password);
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Wide" }).click();
    await page.getByRole("link", { name: "start" }).click();
    await page.waitForURL(new RegExp(wideEntry.id));
    const app = await measureTyping(page, "Field 30");
    await page.reload();
    await page.getByLabel("Field 30", { exact: true }).waitFor();
    await stripScripts(page);
    const bare = await measureTyping(page, "Field 30");
    const typed = (name: string, p: number, a: number[], b: number[], target: string) => ({
      figure: `admin: ${name} in an entry of 60 fields, p${p} ms over ${a.length} keys${target} (baseline: the same page without scripts)`,
      value: fmt(pct(a, p), 1),
      baseline: fmt(pct(b, p), 1),
      ratio: (pct(a, p) / pct(b, p)).toFixed(2),
    });
    out.push(typed("main-thread work per keystroke", 50, app.work, bare.work, ", target < 16"));
    out.push(typed("main-thread work per keystroke", 95, app.work, bare.work, ", target < 16"));
    out.push(typed("keydown to the next frame (holds the wait for vsync)", 50, app.frame, bare.frame, ""));
    out.push(typed("keydown to the next frame (holds the wait for vsync)", 95, app.frame, bare.frame, ""));

    // The management list by cursor: page 4,000 against page 1 (in process, no browser).
    const token = (await (
      await capa.app.handle(
        new Request(`${origin}/v2/user/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: owner.email, password }),
        }),
      )
    ).json()) as { accessToken: string };
    const get = async (q: string) => {
      const t = performance.now();
      const r = await capa.app.handle(
        new Request(`${origin}/v2/model-instances?model=post&limit=25${q}`, { headers: { authorization: `Bearer ${token.accessToken}` } }),
      );
      const body = (await r.json()) as { next: string | null };
      return { ms: performance.now() - t, next: body.next };
    };
    let next: string | null = null;
    for (let p = 1; p < 4000; p++) next = (await get(next ? `&after=${next}` : "")).next;
    const firstMs: number[] = [];
    const deepMs: number[] = [];
    for (let i = 0; i < 50; i++) {
      firstMs.push((await get("")).ms);
      deepMs.push((await get(`&after=${next}`)).ms);
    }
    const a = pct(firstMs, 50);
    const b = pct(deepMs, 50);
    out.push({
      figure: "GET /v2/model-instances: page 4,000 by cursor vs page 1, p50 ms (100k entries)",
      value: b.toFixed(2),
      baseline: a.toFixed(2),
      ratio: (b / a).toFixed(2),
    });
  } finally {
    // Chromium here runs as one process, and closing a context ends it; closing the browser is enough.
    await browser.close().catch(() => undefined);
    await capa.app.stop(true);
    capa.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
