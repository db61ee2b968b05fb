// Roles shape the app (issue 14 item 10): a viewer sees read-only screens; an editor sees no
// model, key or webhook administration; a direct URL to a screen the role may not use shows a
// clear sentence, never a broken screen. Each screen is checked for the links and buttons that
// must be there and those that must not.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { addMember, signInAs } from "./people-helpers.ts";

let env: BrowserEnv;
let entryId: string;
let modelId: string;
beforeAll(async () => {
  env = await startBrowserEnv();
  await addMember(env, "viewer@capa.local", "viewer", "viewer-password-1");
  await addMember(env, "editor@capa.local", "editor", "editor-password-1");
  entryId = (await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: "Role check", slug: "role-check" } })).id;
  await v2(env, "POST", `/v2/model-instances/${entryId}/publish`, {});
  // Something scheduled, so the Scheduled screen has a row with buttons to show or hide.
  const at = Temporal.Now.instant().add({ hours: 48 }).toZonedDateTimeISO("UTC").toPlainDateTime().toString({ smallestUnit: "minute" });
  await v2(env, "POST", "/v2/scheduled-actions", { action: "unpublish", targets: [{ type: "instance", id: entryId }], wallTime: at, timezone: "UTC" });
  modelId = (await v2(env, "GET", "/v2/models/post")).id;
}, 90_000);
afterAll(async () => {
  await env?.close();
});

const count = (page: Page, role: "button" | "link", name: string) => page.getByRole(role, { name, exact: true }).count();

/** The Body field's rich text editor, once loaded (a read-only textarea stands in until then). */
function bodyEditor(page: Page) {
  return page.getByRole("textbox", { name: "Body", exact: true }).and(page.locator(".ProseMirror"));
}

/** The words of the rail's Screens links. */
async function screenLinks(page: Page): Promise<string[]> {
  return page.getByRole("navigation", { name: "Screens" }).getByRole("link").allTextContents();
}

/** Opens a screen of the app by its URL and waits for its heading. */
async function open(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(`${env.origin}/admin${path}`);
  await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
}

describe("a viewer", () => {
  test("reads every screen and is offered nothing to change", async () => {
    const page = await env.page();
    await signInAs(page, env.origin, "viewer@capa.local", "viewer-password-1");
    expect(await screenLinks(page)).toEqual(["Scheduled", "Trash", "Models", "Workspaces", "Media", "People", "Settings"]);

    // Entries: the list without New entry or selection; the editor without Save, Publish, Unpublish or Delete.
    await open(page, "/content/post", "Post");
    await page.getByRole("link", { name: "Role check" }).waitFor();
    expect(await count(page, "link", "New entry")).toBe(0);
    expect(await page.getByRole("checkbox").count()).toBe(0);
    await page.getByRole("link", { name: "Role check" }).click();
    await page.getByText("Your role (viewer) can read this entry but not change it.").waitFor();
    for (const word of ["Save", "Publish", "Unpublish", "Delete", "Schedule"]) expect(await count(page, "button", word)).toBe(0);
    expect(await page.getByLabel("Title", { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe("Role check");
    // The rich text editors of markdown fields read but do not edit.
    expect(await bodyEditor(page).getAttribute("contenteditable")).toBe("false");
    // What is scheduled is shown; no way to reschedule or cancel it.
    await page.getByText(/^Unpublish on \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC$/).waitFor();
    expect(await page.getByRole("button", { name: /^(Reschedule|Cancel)/ }).count()).toBe(0);
    await expectAccessible(page);
    // A direct URL to a new entry says why there is no form.
    await open(page, "/content/post/new", "New entry");
    await page.getByText("Your role (viewer) can read entries but not write them. Owners, admins, developers and editors can.").waitFor();
    expect(await count(page, "button", "Save")).toBe(0);

    // Scheduled: the rows, and no Reschedule, Cancel or Retry.
    await open(page, "/scheduled", "Scheduled");
    await page.getByText("Your role (viewer) can see what is scheduled; owners, admins, developers and editors change it.").waitFor();
    await page.getByRole("rowheader", { name: "Role check" }).waitFor();
    expect(await page.getByRole("button", { name: /^(Reschedule|Cancel|Retry)/ }).count()).toBe(0);
    await expectAccessible(page);

    // Models: read, with a sentence; no New model, Add field or Save details.
    await open(page, "/models", "Models");
    await page.getByText("Your role (viewer) can read models; owners, admins and developers change them.").waitFor();
    expect(await count(page, "button", "New model")).toBe(0);
    await open(page, `/models/${modelId}`, "Post");
    for (const word of ["Add field", "Save details"]) expect(await count(page, "button", word)).toBe(0);

    // Keys and webhooks: no links, and a direct URL says so.
    await open(page, "/keys", "API keys");
    await page.getByText("Your role (viewer) cannot see or manage API keys. Owners, admins and developers can.").waitFor();
    expect(await count(page, "button", "New key")).toBe(0);
    await open(page, "/webhooks", "Webhooks");
    await page.getByText("Your role (viewer) cannot see or manage webhooks. Owners, admins and developers can.").waitFor();
    expect(await count(page, "button", "New webhook")).toBe(0);

    // People and settings: read only.
    await open(page, "/people", "People");
    await page.getByText("You can see who is here; owners and admins invite people and change roles.").waitFor();
    expect(await count(page, "button", "Invite")).toBe(0);
    await open(page, "/settings", "Settings");
    await page.getByText("Your role (viewer) can read these settings; owners and admins change them.").waitFor();
    for (const word of ["Save", "Delete project"]) expect(await count(page, "button", word)).toBe(0);
    // Their own profile is theirs to change.
    await open(page, "/profile", "Your profile");
    expect(await count(page, "button", "Save")).toBe(1);
  }, 90_000);
});

describe("an editor", () => {
  test("writes entries and schedules, and sees no model, key or webhook administration", async () => {
    const page = await env.page();
    await signInAs(page, env.origin, "editor@capa.local", "editor-password-1");
    expect(await screenLinks(page)).toEqual(["Scheduled", "Trash", "Models", "Workspaces", "Media", "People", "Settings"]);

    await open(page, "/content/post", "Post");
    await page.getByRole("link", { name: "Role check" }).waitFor();
    expect(await count(page, "link", "New entry")).toBe(1);
    expect(await page.getByRole("checkbox", { name: "Select Role check" }).count()).toBe(1);
    await page.getByRole("link", { name: "Role check" }).click();
    await page.getByRole("heading", { name: "Role check", level: 1 }).waitFor();
    for (const word of ["Save", "Unpublish", "Delete", "Schedule"]) expect(await count(page, "button", word)).toBe(1);
    expect(await page.getByLabel("Title", { exact: true }).isDisabled()).toBe(false);
    expect(await bodyEditor(page).getAttribute("contenteditable")).toBe("true");

    await open(page, "/scheduled", "Scheduled");
    await page.getByRole("button", { name: "Reschedule unpublish “Role check”" }).waitFor();
    expect(await page.getByRole("button", { name: "Cancel unpublish “Role check”" }).count()).toBe(1);

    // Models: read with a sentence, nothing to shape.
    await open(page, "/models", "Models");
    await page.getByText("Your role (editor) can read models; owners, admins and developers change them.").waitFor();
    expect(await count(page, "button", "New model")).toBe(0);
    await open(page, `/models/${modelId}`, "Post");
    for (const word of ["Add field", "Save details"]) expect(await count(page, "button", word)).toBe(0);
    // Keys and webhooks by direct URL: a sentence, and no request the server would refuse.
    const refused: string[] = [];
    page.on("response", (r) => {
      if (r.status() === 403) refused.push(r.url());
    });
    await open(page, "/keys", "API keys");
    await page.getByText("Your role (editor) cannot see or manage API keys. Owners, admins and developers can.").waitFor();
    expect(await count(page, "button", "New key")).toBe(0);
    await open(page, "/webhooks", "Webhooks");
    await page.getByText("Your role (editor) cannot see or manage webhooks. Owners, admins and developers can.").waitFor();
    expect(await count(page, "button", "New webhook")).toBe(0);
    await expectAccessible(page);
    expect(refused).toEqual([]);

    await open(page, "/people", "People");
    expect(await count(page, "button", "Invite")).toBe(0);
    await open(page, "/settings", "Settings");
    await page.getByText("Your role (editor) can read these settings; owners and admins change them.").waitFor();
    expect(await count(page, "button", "Save")).toBe(0);
  }, 90_000);

  test("a refusal from the server is said in words, not a broken screen", async () => {
    // The owner demotes the editor while their page is open; the next write is refused by the server.
    const page = await env.page();
    await signInAs(page, env.origin, "editor@capa.local", "editor-password-1", `/admin/content/post/${entryId}`);
    await page.getByRole("heading", { name: "Role check", level: 1 }).waitFor();
    const members = (await v2(env, "GET", `/v2/projects/${env.demoProjectId}/members`)).data as { userId: string; email: string }[];
    const editor = members.find((m) => m.email === "editor@capa.local")!;
    await v2(env, "PATCH", `/v2/projects/${env.demoProjectId}/members/${editor.userId}`, { role: "viewer" });
    await page.getByLabel("Excerpt", { exact: true }).fill("Changed after the demotion");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("alert").filter({ hasText: "Your role cannot do this here: Insufficient permissions" }).waitFor();
    await page.getByRole("heading", { name: "Role check", level: 1 }).waitFor();
    expect((await v2(env, "GET", `/v2/model-instances/${entryId}`)).draft.data.excerpt).toBeNull();
    await v2(env, "PATCH", `/v2/projects/${env.demoProjectId}/members/${editor.userId}`, { role: "editor" });
  }, 60_000);
});
