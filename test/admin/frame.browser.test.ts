// The shell around every screen (issue 27 item 1) in a real browser, at 1280x800 and at 390x844:
// the rail and the top bar stay in view on a long page; at 390 px the rail leaves the page and
// the top bar's Menu opens it as a dialog that closes on navigation and on Escape; every screen
// sets the document title; a navigation moves focus to the new screen's main heading; `?` lists
// the keys. Found by role, label and visible text; axe on the shell at both widths.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";

let env: BrowserEnv;
let entry: { id: string; title: string };
beforeAll(async () => {
  env = await startBrowserEnv();
  const made = await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: "A long read", slug: "a-long-read" } });
  entry = { id: made.id, title: "A long read" };
}, 60_000);
afterAll(async () => {
  await env?.close();
});

/** The text of the element that has focus. */
const focused = (page: Page) => page.evaluate(() => `${document.activeElement?.tagName}:${document.activeElement?.textContent}`);

describe("the shell at 1280x800", () => {
  test("rail and top bar stay in view on a long list; titles name each screen; focus goes to the main heading", async () => {
    const page = await env.page({ width: 1280, height: 800 });
    await page.goto(`${env.origin}/admin/`);
    await page.getByRole("heading", { name: "Sign in to Capa" }).waitFor();
    expect(await page.title()).toBe("Sign in · Capa");
    await signIn(page, env.origin);
    await page.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
    await page.waitForFunction(() => document.title === "Home · Demo · Capa");
    // No Menu button on a wide screen: the rail is on the page.
    expect(await page.getByRole("button", { name: "Menu", exact: true }).count()).toBe(0);
    const rail = page.getByRole("navigation", { name: "Workspace" });

    await rail.getByRole("link", { name: "Post" }).click();
    await page.getByRole("heading", { name: "Post", level: 1 }).waitFor();
    await page.waitForFunction(() => document.title === "Post · Demo · Capa");
    await page.waitForFunction(() => document.activeElement?.tagName === "H1");
    expect(await focused(page)).toBe("H1:Post");

    // A page of 100 rows is far taller than the window: scrolled to its end, the rail's links and
    // the top bar are still where they were.
    await page.getByLabel("Per page").selectOption("100");
    await page.getByText(/^Entries 1–\d+ of \d+$/).waitFor();
    await page.mouse.move(700, 500);
    await page.mouse.wheel(0, 20_000);
    await page.waitForFunction(() => window.scrollY > 500);
    const bar = await page.getByRole("banner").boundingBox();
    expect(bar?.y).toBe(0);
    const post = await rail.getByRole("link", { name: "Post" }).boundingBox();
    expect(post!.y >= 0 && post!.y < 800).toBe(true);
    const signOut = await page.getByRole("button", { name: "Sign out", exact: true }).boundingBox();
    expect(signOut!.y >= 0 && signOut!.y + signOut!.height <= 800).toBe(true);
    await expectAccessible(page);
    await screenshot(page, "shell-scrolled-1280");

    // The entry's tab names the entry, its model and the project.
    await page.goto(`${env.origin}/admin/content/post/${entry.id}`);
    await page.getByRole("heading", { name: entry.title, level: 1 }).waitFor();
    await page.waitForFunction((t) => document.title === t, `${entry.title} · Post · Demo · Capa`);

    // A screen without its own title takes its heading's.
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Media" }).click();
    await page.getByRole("heading", { name: "Media", level: 1 }).waitFor();
    await page.waitForFunction(() => document.title === "Media · Demo · Capa");
    await page.waitForFunction(() => document.activeElement?.tagName === "H1");
    expect(await focused(page)).toBe("H1:Media");
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "API keys" }).click();
    await page.getByRole("heading", { name: "API keys", level: 1 }).waitFor();
    await page.waitForFunction(() => document.title === "API keys · Demo · Capa");

    // `?` lists what works, at this width too.
    await page.keyboard.press("?");
    await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor({ state: "detached" });

    // A screen opened from the palette takes focus too, and names the tab.
    await page.keyboard.press("Control+k");
    const palette = page.getByRole("dialog", { name: "Command palette" });
    await palette.getByRole("combobox", { name: "Search commands" }).fill("Scheduled");
    await palette
      .getByRole("option", { name: /^Scheduled/ })
      .first()
      .waitFor();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Scheduled", level: 1 }).waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === "H1");
    expect(await focused(page)).toBe("H1:Scheduled");
    await page.waitForFunction(() => document.title === "Scheduled · Demo · Capa");
  }, 90_000);
});

describe("the shell at 390x844", () => {
  test("the rail is out of the way; Menu opens it as a dialog that closes on Escape and on navigation", async () => {
    const page = await env.page({ width: 390, height: 844 });
    await signIn(page, env.origin);
    await page.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
    const menu = page.getByRole("button", { name: "Menu", exact: true });
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    // The navigation is not on the page until the menu opens.
    expect(await page.getByRole("navigation", { name: "Workspace" }).count()).toBe(0);
    expect(await page.getByRole("navigation", { name: "Screens" }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, "shell-390");

    await menu.click();
    const dialog = page.getByRole("dialog", { name: "Menu" });
    await dialog.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Post" }).waitFor();
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    await expectAccessible(page);
    await screenshot(page, "shell-menu-390");
    // Escape closes it and focus goes back to the Menu button.
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await page.waitForFunction(() => document.activeElement?.textContent === "Menu");

    // A link followed in the menu closes it; the new screen's heading takes focus.
    await page.evaluate(() => {
      (document.querySelector("header button") as any).marked = 1;
      (document.querySelector("main") as any).marked = 1;
    });
    await menu.click();
    await dialog.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Post" }).click();
    await page.getByRole("heading", { name: "Post", level: 1 }).waitFor();
    await dialog.waitFor({ state: "detached" });
    await page.waitForFunction(() => document.activeElement?.tagName === "H1");
    expect(await focused(page)).toBe("H1:Post");
    await page.waitForFunction(() => document.title === "Post · Demo · Capa");
    await page.getByText(/^Entries 1–25 of \d+$/).waitFor();
    await expectAccessible(page);
    await screenshot(page, "entry-list-390");

    // The project's screens are in the menu too, under their own heading.
    await menu.click();
    await dialog.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Scheduled" }).click();
    await page.getByRole("heading", { name: "Scheduled", level: 1 }).waitFor();
    await dialog.waitFor({ state: "detached" });
    await page.waitForFunction(() => document.title === "Scheduled · Demo · Capa");

    // The top bar stays at the top while the page scrolls.
    await page.goto(`${env.origin}/admin/content/post?limit=100`);
    await page.getByText(/^Entries 1–\d+ of \d+$/).waitFor();
    await page.mouse.move(200, 500);
    await page.mouse.wheel(0, 20_000);
    await page.waitForFunction(() => window.scrollY > 500);
    expect((await page.getByRole("banner").boundingBox())?.y).toBe(0);
    expect(await menu.isVisible()).toBe(true);

    await page.keyboard.press("?");
    await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
    await expectAccessible(page);
  }, 90_000);
});
