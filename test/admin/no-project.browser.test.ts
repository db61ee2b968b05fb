// A person in no project (issue 27 item 6) on a server where anyone may make projects
// (CAPA_PROJECT_CREATORS=anyone): the welcome screen says how one joins a project and offers New
// project, which opens the new project at once with its first steps. In a real browser at 390x844.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectAccessible, screenshot, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { addMember } from "./people-helpers.ts";

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv({ projectCreators: "anyone" });
  // Someone who was in the demo project and was removed from it: an account with no project.
  await addMember(env, "solo@capa.local", "viewer", "solo-password-1");
  const members = (await v2(env, "GET", `/v2/projects/${env.demoProjectId}/members`)).data as { email: string; userId: string }[];
  await v2(env, "DELETE", `/v2/projects/${env.demoProjectId}/members/${members.find((m) => m.email === "solo@capa.local")!.userId}`);
}, 60_000);
afterAll(async () => {
  await env?.close();
});

describe("a person in no project", () => {
  test("is welcomed, told how to join, and makes a project of their own", async () => {
    const page = await env.page({ width: 390, height: 844 });
    await page.goto(`${env.origin}/admin/sign-in`);
    await page.getByLabel("Email").fill("solo@capa.local");
    await page.getByLabel("Password").fill("solo-password-1");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Welcome to Capa", level: 1 }).waitFor();
    await page.getByText("You are not a member of any project yet: an invitation from a project's owner or admin brings you in.").waitFor();
    expect(await page.title()).toBe("Welcome · Capa");
    await page.getByRole("button", { name: "New project" }).click();
    const dialog = page.getByRole("dialog", { name: "New project" });
    await dialog.getByRole("button", { name: "Create project" }).click();
    await dialog.getByText("name must be 1 to 120 characters").waitFor();
    await expectAccessible(page);
    await dialog.getByLabel("Name").fill("Solo site");
    await dialog.getByRole("button", { name: "Create project" }).click();
    await page.getByRole("heading", { name: "Solo site", level: 1 }).waitFor();
    await page.getByRole("region", { name: "First steps" }).getByRole("link", { name: "Make a model" }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "no-project-new-390");
  }, 60_000);
});
