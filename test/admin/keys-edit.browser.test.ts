// API keys in a real browser, issue 14 item 5's remaining parts: the version pin in `New key`
// (proved by a real read answering in the pinned version), and `Edit` changing a key's version
// pin and its access (custom scopes limited to one model, then a preset), each checked over /v2;
// a developer editing a key that holds a scope they do not is refused at `Access`.
//
// Only one dated version exists today, so pinning could not be told from the default: this file
// registers an older supported version for its own server (same process) and removes it after.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { addMember, signInAs } from "./people-helpers.ts";
import { VERSIONS } from "../../src/domain/versions.ts";

const OLDER = { date: "2026-06-01", status: "supported" as const, changes: [] };
let env: BrowserEnv;
beforeAll(async () => {
  VERSIONS.unshift(OLDER);
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  VERSIONS.splice(VERSIONS.indexOf(OLDER), 1);
  await env?.close();
});

/** The version a read with `key` was answered in. */
async function servedWith(key: string): Promise<string | null> {
  const res = await fetch(`${env.origin}/api/entries/post`, { headers: { "x-api-key": key } });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return res.headers.get("svc-version");
}

function row(page: Page, text: string) {
  return page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: text, exact: true }) });
}

const keyNamed = async (name: string) => (await v2(env, "GET", "/v2/tenants/api-keys?includeStatus=true")).data.find((k: { name: string }) => k.name === name);

describe("API keys: version pin and editing access", () => {
  test("New key pins a version; Edit moves the pin and changes the access to custom scopes of one model, then to a preset", async () => {
    const page = await env.page();
    await signIn(page, env.origin, "/admin/keys");
    await page.getByRole("button", { name: "New key" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Old site");
    const version = page.getByLabel("API version");
    await version.getByRole("option", { name: "2026-06-01 (supported)" }).waitFor({ state: "attached" });
    expect(await version.getByRole("option").allTextContents()).toEqual(["2026-06-01 (supported)", "2026-10-01 (current)"]);
    // The newest version is chosen until the person picks another, as the server would pin.
    expect(await version.inputValue()).toBe("2026-10-01");
    await version.selectOption({ label: "2026-06-01 (supported)" });
    await expectAccessible(page);
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("heading", { name: "Key Old site created" }).waitFor();
    const secret = await page.getByLabel("Secret").inputValue();
    await page.getByRole("button", { name: "Done" }).click();
    await row(page, "Old site").getByRole("cell", { name: "2026-06-01" }).waitFor();
    const minted = await keyNamed("Old site");
    expect(minted.version).toBe("2026-06-01");
    expect(await servedWith(secret)).toBe("2026-06-01");

    // Edit: the pin moves to the current version, the access to two scopes limited to Post.
    await page.getByRole("button", { name: "Edit Old site" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Old site" });
    await edit.getByLabel("Access").waitFor();
    expect(await edit.getByLabel("Access").inputValue()).toBe("read_only");
    expect(await edit.getByLabel("API version").inputValue()).toBe("2026-06-01");
    await edit.getByLabel("API version").selectOption({ label: "2026-10-01 (current)" });
    await edit.getByLabel("Access").selectOption({ label: "Custom scopes" });
    const scopes = edit.getByRole("group", { name: "Scopes" });
    await scopes.getByLabel("Read entries", { exact: true }).check();
    await scopes.getByLabel("Read models", { exact: true }).check();
    await edit.getByLabel("Limit entry and model scopes to").selectOption({ label: "Post" });
    await expectAccessible(page);
    await screenshot(page, "keys-edit-access");
    await edit.getByRole("button", { name: "Save" }).click();
    await row(page, "Old site").getByText("Read the model Post").waitFor();
    expect(await row(page, "Old site").getByRole("cell").nth(1).getByRole("listitem").allInnerTexts()).toEqual([
      "Read published entries of Post",
      "Read the model Post",
    ]);
    const post = (await v2(env, "GET", "/v2/models")).data.find((m: { namespace: string }) => m.namespace === "post");
    const edited = await keyNamed("Old site");
    expect({ version: edited.version, scopes: edited.scopes.sort() }).toEqual({
      version: "2026-10-01",
      scopes: [`instance:read:${post.id}`, `model:read:${post.id}`],
    });
    expect(await servedWith(secret)).toBe("2026-10-01");
    expect(await row(page, "Old site").getByRole("cell").nth(2).textContent()).toBe("2026-10-01");

    // Opened again, the dialog shows what the key holds; a preset replaces it.
    await page.getByRole("button", { name: "Edit Old site" }).click();
    await edit.getByRole("group", { name: "Scopes" }).waitFor();
    expect(await edit.getByLabel("Access").inputValue()).toBe("custom");
    expect(await scopes.getByLabel("Read entries", { exact: true }).isChecked()).toBe(true);
    expect(await scopes.getByLabel("Read models", { exact: true }).isChecked()).toBe(true);
    expect(await scopes.getByLabel("Read media", { exact: true }).isChecked()).toBe(false);
    expect(await edit.getByLabel("Limit entry and model scopes to").inputValue()).toBe(post.id);
    await edit.getByLabel("Access").selectOption({ label: "Content writer" });
    await edit.getByRole("button", { name: "Save" }).click();
    await row(page, "Old site").getByRole("cell", { name: "Content writer" }).waitFor();
    const preset = (await v2(env, "GET", "/v2/tenants/api-keys/grantable")).presets.find((p: { name: string }) => p.name === "content_writer");
    expect((await keyNamed("Old site")).scopes.sort()).toEqual([...preset.scopes].sort());

    // A save of the name alone leaves the scopes as they are.
    await page.getByRole("button", { name: "Edit Old site" }).click();
    await edit.getByLabel("Access").waitFor();
    await edit.getByLabel("Name").fill("New site");
    await edit.getByRole("button", { name: "Save" }).click();
    await row(page, "New site").waitFor();
    expect((await keyNamed("New site")).scopes.sort()).toEqual([...preset.scopes].sort());
  }, 90_000);

  test("a developer editing a key that holds a scope they lack is refused at Access, and the key is unchanged", async () => {
    await v2(env, "POST", "/v2/tenants/api-keys", { name: "Integration", environment: "development", preset: "full_integration" });
    const before = await keyNamed("Integration");
    await addMember(env, "dev@capa.local", "developer", "developer-password-1");
    const page = await env.page();
    await signInAs(page, env.origin, "dev@capa.local", "developer-password-1", "/admin/keys");
    await page.getByRole("button", { name: "Edit Integration" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Integration" });
    await edit.getByLabel("Access").waitFor();
    expect(await edit.getByLabel("Access").inputValue()).toBe("full_integration");
    // Presets beyond the developer's role are offered but cannot be chosen.
    expect(await edit.getByLabel("Access").getByRole("option").allTextContents()).toEqual([
      "Read only",
      "Content writer (beyond your role)",
      "Full integration (beyond your role)",
      "Schema builder (beyond your role)",
      "Custom scopes",
    ]);
    await edit.getByLabel("Access").selectOption({ label: "Read only" });
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.getByText("Cannot grant a scope you do not hold: media:create", { exact: true }).waitFor();
    expect(await edit.getByLabel("Access").getAttribute("aria-invalid")).toBe("true");
    await expectAccessible(page);
    const after = await keyNamed("Integration");
    expect(after).toEqual(before);
  }, 60_000);
});
