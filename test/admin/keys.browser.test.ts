// The API keys screen in a real browser: mint with a preset, environment and allowed origins, the
// secret shown once and copied, last use and domains seen after a real read with the key, rename,
// edit of name and origins, revoke and reactivate (the key refused, then accepted), rotate with a grace period, the
// server's refusal of a near expiry shown at its field, and an editor kept out with a sentence.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, rail, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { addMember, signInAs } from "./people-helpers.ts";

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  await env?.close();
});

/** A read of the demo project with `key`, as a website at `origin` makes it. */
async function readWith(key: string, origin: string): Promise<number> {
  const res = await fetch(`${env.origin}/api/entries/post`, { headers: { "x-api-key": key, origin } });
  await res.arrayBuffer();
  return res.status;
}

function row(page: Page, text: string) {
  return page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: text, exact: true }) });
}

describe("API keys", () => {
  test("mint, copy once, see last use and domains, edit name and origins, revoke, reactivate, rotate", async () => {
    const page = await env.page();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.origin });
    await signIn(page, env.origin);
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "API keys" }).click();
    await page.getByRole("heading", { name: "API keys", level: 1 }).waitFor();
    expect(await page.title()).toBe("API keys · Demo · Capa");

    await page.getByRole("button", { name: "New key" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Website");
    // The presets come from GET .../grantable; wait for them before reading the options.
    await page.getByLabel("Access").getByRole("option", { name: "Read only" }).waitFor({ state: "attached" });
    expect(await page.getByLabel("Access").getByRole("option").allTextContents()).toEqual([
      "Read only",
      "Content writer",
      "Full integration",
      "Schema builder",
      "Custom scopes",
    ]);
    await page.getByLabel("Access").selectOption({ label: "Read only" });
    await page.getByLabel("Environment").selectOption({ label: "Development" });
    await page.getByLabel("Allowed origins").fill("https://site.example\nhttps://site.example/path");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByText("“https://site.example/path” is not an origin such as https://example.com (no path).").waitFor();
    expect(await page.getByLabel("Allowed origins").getAttribute("aria-invalid")).toBe("true");
    // The refusal is part of the field's description, so a screen reader reads it with the field.
    const description = await page
      .getByLabel("Allowed origins")
      .evaluate((el) => (el.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent));
    expect(description).toEqual([
      "One origin a line, such as https://example.com. Empty: browsers on any site may use the key.",
      "“https://site.example/path” is not an origin such as https://example.com (no path).",
    ]);
    await page.getByLabel("Allowed origins").fill("https://site.example");
    await expectAccessible(page);
    await screenshot(page, "keys-new");
    await page.getByRole("button", { name: "Create key" }).click();

    await page.getByRole("heading", { name: "Key Website created" }).waitFor();
    const secret = await page.getByLabel("Secret").inputValue();
    expect(secret).toMatch(/^svc_test_/);
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByText("Copied to the clipboard.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await expectAccessible(page);
    await screenshot(page, "keys-secret");
    await page.getByRole("button", { name: "Done" }).click();
    expect(await page.getByLabel("Secret").count()).toBe(0);

    const website = row(page, "Website");
    await website.waitFor();
    const cells = await website.getByRole("cell").allTextContents();
    expect([cells[0], ...cells.slice(2)]).toEqual([`${secret.slice(0, 12)}… Development`, "2026-10-01", "Active", "Never", "None yet", "EditRotateRevoke"]);
    // The access in words, each line with its raw scopes in a tooltip, on hover and on focus.
    const access = website.getByRole("cell").nth(1);
    await access.getByText("Read only", { exact: true }).waitFor();
    expect(await access.getByRole("listitem").allInnerTexts()).toEqual([
      "Read drafts and published entries of every model",
      "Read models, media, categories, types and workspaces",
      "Search entries",
    ]);
    expect(await page.getByRole("tooltip").count()).toBe(0);
    await access.getByText("Read models, media, categories, types and workspaces").hover();
    await expect(page.getByRole("tooltip").textContent()).resolves.toBe("model:read, media:read, category:read, type:read, workspace:read");
    await page.getByRole("heading", { name: "API keys", level: 1 }).hover();
    await page.getByRole("tooltip").waitFor({ state: "hidden" });
    await access.getByText("Read drafts and published entries of every model").focus();
    await expect(page.getByRole("tooltip").textContent()).resolves.toBe("instance:read");
    await expectAccessible(page);
    await screenshot(page, "keys-scope-tooltip");
    await page.keyboard.press("Escape");
    await page.getByRole("tooltip").waitFor({ state: "hidden" });
    // The allowed origin holds: another site is refused, the listed one reads.
    expect(await readWith(secret, "https://other.example")).toBe(403);
    expect(await readWith(secret, "https://site.example")).toBe(200);
    // A reload keeps the session (the cookie) and asks for the list again.
    await page.reload();
    await website.waitFor();
    await website.getByText("site.example").waitFor();
    expect(await website.getByRole("cell").nth(4).textContent()).not.toBe("Never");

    // Edit: a new name and a second allowed origin, which then reads too.
    expect(await readWith(secret, "https://two.example")).toBe(403);
    await page.getByRole("button", { name: "Edit Website" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Website" });
    expect(await edit.getByLabel("Allowed origins").inputValue()).toBe("https://site.example");
    await edit.getByLabel("Name").fill("Site");
    await edit.getByLabel("Allowed origins").fill("https://site.example\nhttps://two.example");
    await expectAccessible(page);
    await edit.getByRole("button", { name: "Save" }).click();
    const site = row(page, "Site");
    await site.waitFor();
    expect(await readWith(secret, "https://two.example")).toBe(200);

    await page.getByRole("button", { name: "Revoke Site" }).click();
    await page.getByText("Site is revoked: requests with it are refused.").waitFor();
    await site.getByText("Revoked").waitFor();
    expect(await readWith(secret, "https://site.example")).toBe(401);
    await page.getByRole("button", { name: "Reactivate Site" }).click();
    await page.getByText("Site is active again.").waitFor();
    await site.getByText("Active", { exact: true }).waitFor();
    expect(await readWith(secret, "https://site.example")).toBe(200);

    await page.getByRole("button", { name: "Rotate Site" }).click();
    const dialog = page.getByRole("dialog", { name: "Rotate Site?" });
    await dialog.getByLabel("Grace period (hours)").fill("2");
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Rotate" }).click();
    await page.getByRole("heading", { name: "Key Site rotated" }).waitFor();
    const next = await page.getByLabel("Secret").inputValue();
    expect(next).toMatch(/^svc_test_/);
    expect(next).not.toBe(secret);
    await page.getByText(/^The old secret stops working at /).waitFor();
    // Both secrets work during the grace period.
    expect(await readWith(next, "https://site.example")).toBe(200);
    expect(await readWith(secret, "https://site.example")).toBe(200);
    await site.nth(1).waitFor();
    await expect(site.nth(0).getByRole("cell").nth(3).textContent()).resolves.toStartWith("Active until ");
    await expect(site.nth(1).getByRole("cell").nth(3).textContent()).resolves.toBe("Active");
    await screenshot(page, "keys-list");
  }, 90_000);

  test("custom scopes, limited to one model, mint a key with exactly those scopes; an expiry under an hour away is refused at the Expires field", async () => {
    const page = await env.page();
    await signIn(page, env.origin, "/admin/keys");
    await page.getByRole("button", { name: "New key" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Reader");
    await page.getByLabel("Access").selectOption({ label: "Custom scopes" });
    const scopes = page.getByRole("group", { name: "Scopes" });
    // Each scope in words, the raw scope its description (a tooltip on hover and focus).
    await scopes.getByLabel("Read entries", { exact: true }).check();
    await expect(page.getByRole("tooltip").textContent()).resolves.toBe("instance:read");
    await scopes.getByLabel("Read models", { exact: true }).check();
    await scopes.getByLabel("Read media", { exact: true }).check();
    await page.getByLabel("Limit entry and model scopes to").selectOption({ label: "Post" });
    await expectAccessible(page);
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("heading", { name: "Key Reader created" }).waitFor();
    await page.getByRole("button", { name: "Done" }).click();
    const access = row(page, "Reader").getByRole("cell").nth(1);
    await access.getByText("Custom", { exact: true }).waitFor();
    expect(await access.getByRole("listitem").allInnerTexts()).toEqual(["Read published entries of Post", "Read media", "Read the model Post"]);
    const reader = (await v2(env, "GET", "/v2/tenants/api-keys")).data.find((k: { name: string }) => k.name === "Reader");
    const post = (await v2(env, "GET", "/v2/models")).data.find((m: { namespace: string }) => m.namespace === "post");
    expect(reader.scopes.sort()).toEqual([`instance:read:${post.id}`, "media:read", `model:read:${post.id}`]);
    await access.getByText("Read published entries of Post").hover();
    await expect(page.getByRole("tooltip").textContent()).resolves.toBe(`instance:read:${post.id}`);

    // Edit gives it an expiry two days ahead; the status says until when.
    const later = await page.evaluate(() => {
      const d = new Date(Date.now() + 2 * 86_400_000);
      const p = (n: number) => String(n).padStart(2, "0");
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    });
    await page.getByRole("button", { name: "Edit Reader" }).click();
    await page.getByRole("dialog", { name: "Edit Reader" }).getByLabel("Expires").fill(later);
    await page.getByRole("dialog", { name: "Edit Reader" }).getByRole("button", { name: "Save" }).click();
    await row(page, "Reader")
      .getByText(/^Active until /)
      .waitFor();
    const edited = (await v2(env, "GET", "/v2/tenants/api-keys?includeStatus=true")).data.find((k: { name: string }) => k.name === "Reader");
    expect(Math.abs(Date.parse(edited.expiresAt) - Date.now() - 2 * 86_400_000)).toBeLessThan(120_000);

    await page.getByRole("button", { name: "New key" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Too short");
    const soon = await page.evaluate(() => {
      const d = new Date(Date.now() + 10 * 60_000);
      const p = (n: number) => String(n).padStart(2, "0");
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    });
    await page.getByLabel("Expires").fill(soon);
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByText("expiresAt must be at least one hour ahead").waitFor();
    expect(await page.getByLabel("Expires").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByRole("rowheader", { name: "Too short" }).count()).toBe(0);
  }, 60_000);

  test("at 390x844 in dark mode the keys and webhooks screens still read", async () => {
    const page = await env.page({ width: 390, height: 844, colorScheme: "dark" });
    await signIn(page, env.origin, "/admin/keys");
    await page.getByRole("rowheader", { name: "Demo read key (production)" }).waitFor();
    await expectAccessible(page);
    // The scopes in words at phone width too, the raw scope a tap (focus) away.
    const demo = row(page, "Demo read key (production)").getByRole("cell").nth(1);
    expect(await demo.getByRole("listitem").allInnerTexts()).toEqual([
      "Read published entries of every model",
      "Read models, media, categories, types and workspaces",
      "Search entries",
    ]);
    await demo.getByText("Search entries").focus();
    await expect(page.getByRole("tooltip").textContent()).resolves.toBe("search:read");
    await screenshot(page, "keys-390-dark");
    // At phone width the screen links are in the menu dialog.
    await (await rail(page, "Screens")).getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
    await page.getByRole("button", { name: "New webhook" }).click();
    await expectAccessible(page);
  }, 60_000);

  test("an editor is told their role cannot manage keys or webhooks", async () => {
    await addMember(env, "editor@capa.local", "editor", "editor-password-1");
    const page = await env.page();
    await signInAs(page, env.origin, "editor@capa.local", "editor-password-1", "/admin/keys");
    await page.getByText("Your role (editor) cannot see or manage API keys. Owners, admins and developers can.").waitFor();
    expect(await page.getByRole("button", { name: "New key" }).count()).toBe(0);
    await expectAccessible(page);
    // An editor has no Webhooks link (roles.browser.test.ts); the direct URL says why.
    expect(await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Webhooks" }).count()).toBe(0);
    await page.goto(`${env.origin}/admin/webhooks`);
    await page.getByText("Your role (editor) cannot see or manage webhooks. Owners, admins and developers can.").waitFor();
    expect(await page.getByRole("button", { name: "New webhook" }).count()).toBe(0);
  }, 60_000);
});
