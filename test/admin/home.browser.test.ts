// The home screen and projects in the app (issue 27 items 5 and 6) in a real browser: after sign-in
// the projects a person can open, the entries they saved last, scheduled actions coming up and
// failed deliveries, each a link; New project (an empty or a 10,000-character name refused in
// words, then straight into the new project with its three first steps); rename (the same names
// refused) and delete with the slug typed, for owners. At 1280x800 and 390x844; axe on home.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, rail, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { addMember, signInAs } from "./people-helpers.ts";

let env: BrowserEnv;
let noteId: string;
beforeAll(async () => {
  env = await startBrowserEnv({ webhookAllowPrivate: true });
  noteId = (await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: "Home page note", slug: "home-page-note" } })).id;
  await v2(env, "POST", "/v2/scheduled-actions", {
    action: "publish",
    targets: [{ type: "instance", id: noteId }],
    wallTime: "2031-06-01T09:00",
    timezone: "Europe/Berlin",
  });
  // A delivery whose retries ran out (the retry schedule itself is tested in test/webhooks): an
  // endpoint made as a script makes it, and its delivery written as the sender leaves a failed one.
  const hook = await v2(env, "POST", "/v2/webhooks", { url: "https://127.0.0.1:9/hook", description: "Site" });
  const h = env.capa.services.projects.get(env.demoProjectId);
  const at = new Date().toISOString();
  h.sqlite
    .query(
      "INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, status, attempts, created_at, updated_at, finished_at) VALUES (?, ?, ?, 'instance.published', 'failed', 8, ?, ?, ?)",
    )
    .run(crypto.randomUUID(), hook.id, crypto.randomUUID(), at, at, at);
  await addMember(env, "editor@capa.local", "editor", "editor-password-1");
}, 90_000);
afterAll(async () => {
  await env?.close();
});

const section = (page: Page, name: string) => page.getByRole("region", { name });

describe("home at 1280x800", () => {
  test("recent entries, what is coming up and failed deliveries, each a link; the person's projects", async () => {
    const page = await env.page();
    await signIn(page, env.origin);
    await page.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
    const recent = section(page, "Your recent entries");
    await recent.getByRole("link").first().waitFor();
    expect(await recent.getByRole("link").first().textContent()).toBe("Home page note");
    await section(page, "Coming up").getByText("Publish Home page note").waitFor();
    const failed = section(page, "Failed deliveries");
    await failed.getByText("1 delivery failed and was not sent again.").waitFor();
    await failed.getByRole("link", { name: "Entry published to https://127.0.0.1:9/hook" }).waitFor();
    expect(await section(page, "Your projects").getByRole("listitem").allTextContents()).toEqual(["Demo (open now)"]);
    // The demo project has models, entries and keys: no first steps.
    expect(await section(page, "First steps").count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, "home-1280");

    await recent.getByRole("link", { name: "Home page note" }).click();
    await page.getByRole("heading", { name: "Home page note", level: 1 }).waitFor();
    await page.goBack();
    await section(page, "Coming up").getByRole("link", { name: "Home page note" }).click();
    await page.waitForURL(`**/admin/content/post/${noteId}`);
    await page.goBack();
    await failed.getByRole("link", { name: "Entry published to https://127.0.0.1:9/hook" }).click();
    await page.getByRole("heading", { name: "https://127.0.0.1:9/hook", level: 1 }).waitFor();
  }, 90_000);

  test("New project: an empty or a 10,000-character name is refused in words; a good one opens with its first steps", async () => {
    const page = await env.page();
    await signIn(page, env.origin);
    await page.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
    await page.getByRole("button", { name: "New project" }).click();
    const dialog = page.getByRole("dialog", { name: "New project" });
    const name = dialog.getByLabel("Name");
    await dialog.getByRole("button", { name: "Create project" }).click();
    await dialog.getByText("name must be 1 to 120 characters").waitFor();
    expect(await name.getAttribute("aria-invalid")).toBe("true");
    await name.fill("x".repeat(10_000));
    await dialog.getByRole("button", { name: "Create project" }).click();
    await dialog.getByText("name must be 1 to 120 characters").waitFor();
    await expectAccessible(page);
    expect((await v2(env, "GET", "/v2/projects")).data.map((p: { name: string }) => p.name)).toEqual(["Demo"]);

    await name.fill("Launch site");
    await dialog.getByRole("button", { name: "Create project" }).click();
    await page.getByRole("heading", { name: "Launch site", level: 1 }).waitFor();
    await page.waitForFunction(() => document.title === "Home · Launch site · Capa");
    expect(await page.getByLabel("Project", { exact: true }).getByRole("option", { selected: true }).textContent()).toBe("Launch site");
    const steps = section(page, "First steps");
    expect(await steps.getByRole("listitem").allTextContents()).toEqual([
      "Make a model To doThe shape of your content: its fields, such as a title and a body.",
      "Add an entry To doMake a model first; its entries are written here.",
      "Make an API key To doYour site reads the content with it.",
    ]);
    await expectAccessible(page);
    await screenshot(page, "home-new-project");
    await steps.getByRole("link", { name: "Make a model" }).click();
    await page.getByRole("heading", { name: "Models", level: 1 }).waitFor();
  }, 90_000);

  test("an owner renames a project (bad names refused in words) and deletes it with its slug typed", async () => {
    const made = await v2(env, "POST", "/v2/projects", { name: "Old shop" });
    const page = await env.page();
    await signIn(page, env.origin);
    await page.getByLabel("Project", { exact: true }).selectOption({ label: "Old shop" });
    await page.getByRole("heading", { name: "Old shop", level: 1 }).waitFor();
    await (await rail(page, "Screens")).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
    const name = page.getByLabel("Name", { exact: true });
    for (const bad of ["", "x".repeat(10_000)]) {
      await name.fill(bad);
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("name must be 1 to 120 characters").waitFor();
      expect(await name.getAttribute("aria-invalid")).toBe("true");
    }
    await name.fill("New shop");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Settings saved.").waitFor();
    await page.getByRole("banner").getByText("New shop").waitFor();

    await page.getByRole("button", { name: "Delete project" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete New shop?" });
    const confirm = dialog.getByRole("button", { name: "Delete for good" });
    await dialog.getByLabel("Slug of the project").fill("not-it");
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Slug of the project").fill(made.slug);
    await confirm.click();
    await page.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
    expect((await v2(env, "GET", "/v2/projects")).data.map((p: { name: string }) => p.name)).not.toContain("New shop");
  }, 90_000);
});

describe("home at 390x844", () => {
  test("an editor's home: no deliveries (editors do not see webhooks), no New project button", async () => {
    const page = await env.page({ width: 390, height: 844 });
    await signInAs(page, env.origin, "editor@capa.local", "editor-password-1");
    await page.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
    await section(page, "Your recent entries").getByText("Entries you save show here.").waitFor();
    await section(page, "Coming up").getByText("Publish Home page note").waitFor();
    expect(await section(page, "Failed deliveries").count()).toBe(0);
    expect(await page.getByRole("button", { name: "New project" }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, "home-390");
  }, 60_000);
});
