// One way to start the browser of the browser tests and the admin bench: the Chromium build of
// @sparticuz/chromium, driven by playwright-core, with web security on, as people's browsers run.
// @sparticuz/chromium's default arguments are made for scraping in a lambda and switch off the
// same-origin policy (--disable-web-security) and mixed-content blocking; with them a page on one
// origin could read another without CORS, and our CORS and CSP would go untested.
import chromium from "@sparticuz/chromium";
import { chromium as playwright, type Browser } from "playwright-core";

/** Arguments of @sparticuz/chromium that weaken CORS, CSP or mixed-content rules, dropped by name. */
export const WEAKENING_ARGS = ["--disable-web-security", "--allow-running-insecure-content"];

/** @sparticuz/chromium's arguments without the ones that weaken web security. */
export function safeArgs(): string[] {
  return chromium.args.filter((a) => !WEAKENING_ARGS.includes(a));
}

/** Launches headless Chromium with web security on. */
export async function launchChromium(): Promise<Browser> {
  return playwright.launch({ executablePath: await chromium.executablePath(), args: safeArgs(), headless: true });
}
