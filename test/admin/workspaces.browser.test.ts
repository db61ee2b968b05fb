// The Workspaces screens in a real browser (issue 14 item 3): an owner creates a workspace from
// a template, renames it, changes its visibility, builds its arrangement by drag and drop and by
// the keyboard's row buttons, saves it (the saved tree is read back over /v2), sees a refusal
// beside the node it names, sets the project default, assigns a member (who then sees it in
// their rail) and switches the current workspace (the rail follows); a viewer reads only.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { expectAccessible, rail, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { addMember, signInAs } from "./people-helpers.ts";

let env: BrowserEnv;
let photos: { id: string };
let spring: { id: string };
let editorId: string;
beforeAll(async () => {
  env = await startBrowserEnv();
  photos = await v2(env, "POST", "/v2/media-folders", { name: "Photos" });
  spring = await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: "Spring launch notes", slug: "spring-launch-notes" } });
  await addMember(env, "editor@capa.local", "editor", "editor-password-1");
  await addMember(env, "viewer@capa.local", "viewer", "viewer-password-1");
  const members = (await v2(env, "GET", `/v2/projects/${env.demoProjectId}/members`)).data as { email: string; userId: string }[];
  editorId = members.find((m) => m.email === "editor@capa.local")!.userId;
}, 60_000);
afterAll(async () => {
  await env?.close();
});

/** The arrangement's rows as `depth:label`, read from the nested lists. */
async function rows(page: Page): Promise<string[]> {
  return page.getByRole("list", { name: "Arrangement" }).evaluate((root) =>
    [...root.querySelectorAll("[data-node]")].map((row) => {
      let depth = 1;
      for (let at = row.parentElement; at && at !== root; at = at.parentElement) if (at.tagName === "UL") depth++;
      return `${depth}:${row.querySelector(".tree-label")?.textContent}`;
    }),
  );
}

/** A node's label in the arrangement, to drag from or drop on. */
function node(page: Page, label: string): Locator {
  return page.getByRole("list", { name: "Arrangement" }).getByText(label, { exact: true });
}

/** The rail's folder toggles and links, in order. */
async function railItems(page: Page): Promise<string[]> {
  const rail = page.getByRole("navigation", { name: "Workspace" });
  return rail.locator("button, a").allTextContents();
}

function stripIds(nodes: any[]): any[] {
  return nodes.map(({ id: _id, children, ...n }) => ({ ...n, ...(children ? { children: stripIds(children) } : {}) }));
}

async function openWorkspaces(page: Page): Promise<void> {
  await (await rail(page, "Screens")).getByRole("link", { name: "Workspaces" }).click();
  await page.getByRole("heading", { name: "Workspaces", level: 1 }).waitFor();
}

describe("workspaces", () => {
  let editorial: { id: string };

  test("an owner arranges a workspace: template, rename, visibility, drag and keyboard, save, refusal", async () => {
    // Tall enough that a dragged row and the row it is dropped on are on screen together.
    const page = await env.page({ height: 1400 });
    await signIn(page, env.origin);
    await openWorkspaces(page);
    await page.getByText("No workspaces yet").waitFor();

    await page.getByRole("button", { name: "New workspace" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Editorial");
    await page.getByRole("radio", { name: /^Website/ }).check();
    await page.getByRole("button", { name: "Create workspace" }).click();
    await page.getByRole("heading", { name: "Editorial", level: 1 }).waitFor();
    await page.getByRole("list", { name: "Arrangement" }).waitFor();
    expect(await rows(page)).toEqual(["1:Pages", "1:Blog", "1:Navigation", "1:Settings"]);
    const list = (await v2(env, "GET", "/v2/workspaces")).data;
    expect(list.map((w: any) => [w.name, w.template, w.visibility, w.nodes])).toEqual([["Editorial", "website", "team", 4]]);
    editorial = list[0];
    const seeded = (await v2(env, "GET", `/v2/workspaces/${editorial.id}/tree`)).data as { id: string; name: string }[];

    // Rename, then private and back to team.
    await page.getByLabel("Name", { exact: true }).fill("Editorial desk");
    await page.getByRole("button", { name: "Save details" }).click();
    await page.getByText("Details saved.").waitFor();
    await page.getByRole("heading", { name: "Editorial desk", level: 1 }).waitFor();
    await page.getByLabel("Visibility").selectOption("private");
    await page.getByRole("button", { name: "Save details" }).click();
    await page.getByRole("definition").filter({ hasText: "Private" }).waitFor();
    expect((await v2(env, "GET", "/v2/workspaces")).data.map((w: any) => [w.name, w.visibility])).toEqual([["Editorial desk", "private"]]);
    await page.getByLabel("Visibility").selectOption("team");
    await page.getByRole("button", { name: "Save details" }).click();
    await page.getByRole("definition").filter({ hasText: "Team" }).waitFor();

    // Add a folder, a model, an entry (found by search) and a media folder.
    await page.getByLabel("Folder name").fill("Featured");
    await page.getByRole("button", { name: "Add folder" }).click();
    await page.getByLabel("Model", { exact: true }).selectOption({ label: "Post" });
    await page.getByRole("button", { name: "Add model" }).click();
    await page.getByLabel("Entry of").selectOption({ label: "Post" });
    await page.getByLabel("Search entries").fill("Spring launch");
    await page.getByRole("button", { name: "Add entry Spring launch notes" }).click();
    await page.getByLabel("Media folder").selectOption({ label: "Photos" });
    await page.getByRole("button", { name: "Add media folder" }).click();
    expect(await rows(page)).toEqual(["1:Pages", "1:Blog", "1:Navigation", "1:Settings", "1:Featured", "1:Post", "1:Spring launch notes", "1:Photos"]);

    // Drag: the model and the entry into Featured (the middle of a folder drops inside it).
    await node(page, "Post").dragTo(node(page, "Featured"));
    expect(await rows(page)).toEqual(["1:Pages", "1:Blog", "1:Navigation", "1:Settings", "1:Featured", "2:Post", "1:Spring launch notes", "1:Photos"]);
    await node(page, "Spring launch notes").dragTo(node(page, "Featured"));
    expect(await rows(page)).toEqual(["1:Pages", "1:Blog", "1:Navigation", "1:Settings", "1:Featured", "2:Post", "2:Spring launch notes", "1:Photos"]);
    // The upper part of a row drops before it: Navigation goes above Pages.
    await node(page, "Navigation").dragTo(node(page, "Pages"), { targetPosition: { x: 4, y: 1 } });
    expect(await rows(page)).toEqual(["1:Navigation", "1:Pages", "1:Blog", "1:Settings", "1:Featured", "2:Post", "2:Spring launch notes", "1:Photos"]);
    await expectAccessible(page);

    // Keyboard: the media folder into Featured (Indent), then one up; focus stays on the button.
    await page.getByRole("button", { name: "Indent Photos" }).focus();
    await page.keyboard.press("Enter");
    expect(await rows(page)).toEqual(["1:Navigation", "1:Pages", "1:Blog", "1:Settings", "1:Featured", "2:Post", "2:Spring launch notes", "2:Photos"]);
    await page.getByRole("button", { name: "Move Photos up" }).focus();
    await page.keyboard.press("Enter");
    expect(await rows(page)).toEqual(["1:Navigation", "1:Pages", "1:Blog", "1:Settings", "1:Featured", "2:Post", "2:Photos", "2:Spring launch notes"]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Move Photos up");
    // Navigation back below Blog with Down twice, Settings removed, Pages renamed.
    await page.getByRole("button", { name: "Move Navigation down" }).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Remove Settings" }).click();
    // Focus moves to the row that took its place.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Remove Featured");
    await page.getByRole("button", { name: "Rename Pages" }).click();
    await page.getByLabel("Folder name", { exact: true }).first().fill("Landing pages");
    await page.getByRole("button", { name: "Rename folder" }).click();
    // Move to… a folder: Blog into Featured and out again with Outdent.
    await page.getByRole("button", { name: "Move Blog to folder" }).click();
    const dialog = page.getByRole("dialog", { name: "Move Blog" });
    await dialog.getByLabel("Folder").selectOption({ label: "Featured" });
    await dialog.getByRole("button", { name: "Move" }).click();
    expect(await rows(page)).toEqual(["1:Landing pages", "1:Navigation", "1:Featured", "2:Post", "2:Photos", "2:Spring launch notes", "2:Blog"]);
    await page.getByRole("button", { name: "Outdent Blog" }).click();
    const arranged = ["1:Landing pages", "1:Navigation", "1:Featured", "2:Post", "2:Photos", "2:Spring launch notes", "1:Blog"];
    expect(await rows(page)).toEqual(arranged);
    await page.getByText("Unsaved changes").waitFor();
    await expectAccessible(page);
    await screenshot(page, "workspace-editor");
    // Leaving with unsaved changes asks first; Cancel stays with them.
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Models" }).click();
    await page.getByRole("dialog", { name: "Leave without saving?" }).getByRole("button", { name: "Cancel" }).click();
    expect(new URL(page.url()).pathname).toBe(`/admin/workspaces/${editorial.id}`);
    expect(await rows(page)).toEqual(arranged);

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Arrangement saved.", { exact: true }).waitFor();
    expect(await rows(page)).toEqual(arranged);
    const doc = await v2(env, "GET", `/v2/workspaces/${editorial.id}/document`);
    expect(stripIds(doc.tree)).toEqual([
      { folder: "Landing pages", icon: null, children: [] },
      { folder: "Navigation", icon: null, children: [] },
      {
        folder: "Featured",
        icon: null,
        children: [{ model: "post" }, { media_folder: photos.id }, { entry: spring.id }],
      },
      { folder: "Blog", icon: null, children: [] },
    ]);
    // The template's folders kept their ids through the edit (Pages is now Landing pages).
    const byName = (n: string) => seeded.find((f) => f.name === n)!.id;
    expect(doc.tree.map((n: any) => n.id)).toEqual([byName("Pages"), byName("Navigation"), doc.tree[2].id, byName("Blog")]);

    // A refusal names a node: an entry deleted before the save is marked where it sits.
    const doomed = await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: "Doomed draft", slug: "doomed-draft" } });
    await page.getByLabel("Search entries").fill("Doomed");
    await page.getByRole("button", { name: "Add entry Doomed draft" }).click();
    await v2(env, "DELETE", `/v2/model-instances/${doomed.id}`);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const message = `tree[4].entry names no entry of this project: ${doomed.id}`;
    await expect(page.getByRole("alert").textContent()).resolves.toBe(`Not saved: ${message} The item is marked below.`);
    await expect(
      node(page, "Doomed draft")
        .getAttribute("aria-describedby")
        .then((id) => page.locator(`#${id}`).textContent()),
    ).resolves.toBe("This entry is no longer in the project: remove it, then save.");
    expect(stripIds((await v2(env, "GET", `/v2/workspaces/${editorial.id}/document`)).tree)).toHaveLength(4);
    await screenshot(page, "workspace-editor-refused");
    await page.getByRole("button", { name: "Remove Doomed draft" }).click();
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Save", exact: true }).isDisabled()).toBe(true);
  }, 120_000);

  test("default, assignment and the current workspace drive the rails", async () => {
    const shop = await v2(env, "POST", "/v2/workspaces", { name: "Shop", template: "catalog" });
    const page = await env.page();
    await signIn(page, env.origin, "/admin/workspaces");
    await page.getByRole("heading", { name: "Workspaces", level: 1 }).waitFor();
    // With no choice and no default, the first workspace is the owner's current one.
    const rail = page.getByRole("navigation", { name: "Workspace" });
    await rail.getByRole("link", { name: "Photos" }).waitFor();
    const editorialRail = ["▾ Landing pages", "▾ Navigation", "▾ Featured", "Post", "Photos", "Spring launch notes", "▾ Blog"];
    expect(await railItems(page)).toEqual(editorialRail);

    // Use Shop: the rail switches to Shop's folders.
    const table = page.getByRole("table", { name: "Workspaces of Demo" });
    await table.getByRole("button", { name: "Use Shop" }).click();
    await rail.getByRole("button", { name: "▾ Products" }).waitFor();
    expect(await railItems(page)).toEqual(["▾ Products", "▾ Categories", "▾ Collections", "▾ Brands"]);
    await table.getByRole("button", { name: "Use Editorial desk" }).waitFor();
    expect(await table.getByRole("row").nth(1).getByRole("cell").allTextContents()).toEqual(["Team", "7", "You", "—", "Use"]);
    expect(await table.getByRole("row").nth(2).getByRole("cell").allTextContents()).toEqual(["Team", "4", "You", "Your current workspace", ""]);

    // The project default, and the refusal to make the default private said at Visibility.
    await table.getByRole("link", { name: "Editorial desk" }).click();
    await page.getByRole("heading", { name: "Editorial desk", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Set as project default" }).click();
    await page.getByText("Editorial desk is now the project's default workspace.").waitFor();
    expect((await v2(env, "GET", "/v2/workspaces")).default).toBe(editorial.id);
    await page.getByLabel("Visibility").selectOption("private");
    await page.getByRole("button", { name: "Save details" }).click();
    await expect(page.locator("#workspace-edit-visibility-error").textContent()).resolves.toBe(
      "The project's default workspace stays team; make another workspace the default first",
    );
    expect(await page.getByLabel("Visibility").getAttribute("aria-invalid")).toBe("true");

    // Use this workspace: the rail shows Editorial desk's tree again.
    await page.getByRole("button", { name: "Use this workspace" }).click();
    await page.getByText("Editorial desk is now your workspace: the rail shows it.").waitFor();
    await rail.getByRole("link", { name: "Photos" }).waitFor();
    expect(await railItems(page)).toEqual(editorialRail);
    expect((await v2(env, "GET", "/v2/workspaces")).current).toBe(editorial.id);
    await openWorkspaces(page);
    await table.getByRole("button", { name: "Use Shop" }).waitFor();
    expect(await table.getByRole("row").nth(1).getByRole("cell").allTextContents()).toEqual([
      "Team",
      "7",
      "You",
      "Project default, Your current workspace",
      "",
    ]);
    await expectAccessible(page);
    await screenshot(page, "workspaces-list");

    // Assign Shop to the editor, who has made no choice: their rail shows Shop, not the default.
    await table.getByRole("link", { name: "Shop" }).click();
    await page.getByRole("heading", { name: "Shop", level: 1 }).waitFor();
    await page.getByRole("checkbox", { name: /editor@capa\.local/ }).check();
    await page.getByRole("button", { name: "Save assignment" }).click();
    await page.getByText("Assigned to 1 member.").waitFor();
    expect(await v2(env, "GET", `/v2/workspaces/${shop.id}/assign`)).toEqual({ workspaceId: shop.id, userIds: [editorId] });
    await expectAccessible(page);

    const editor = await env.page();
    await signInAs(editor, env.origin, "editor@capa.local", "editor-password-1");
    const editorRail = editor.getByRole("navigation", { name: "Workspace" });
    await editorRail.getByRole("button", { name: "▾ Products" }).waitFor();
    expect(await railItems(editor)).toEqual(["▾ Products", "▾ Categories", "▾ Collections", "▾ Brands"]);
    expect(await editorRail.getByText("Shop", { exact: true }).count()).toBe(1);
    // An editor arranges workspaces but neither sets the default nor assigns.
    await openWorkspaces(editor);
    await editor.getByRole("link", { name: "Editorial desk" }).click();
    await editor.getByRole("button", { name: "Save", exact: true }).waitFor();
    expect(await editor.getByRole("button", { name: "Set as project default" }).count()).toBe(0);
    expect(await editor.getByRole("button", { name: "Save assignment" }).count()).toBe(0);
  }, 120_000);

  test("a viewer reads workspaces and may use one, with no edit controls", async () => {
    const page = await env.page({ width: 360, colorScheme: "dark" });
    await signInAs(page, env.origin, "viewer@capa.local", "viewer-password-1", `/admin/workspaces/${editorial.id}`);
    await page.getByRole("heading", { name: "Editorial desk", level: 1 }).waitFor();
    await page.getByText("Your role (viewer) can use this workspace; editors and above arrange it.").waitFor();
    await page.getByRole("list", { name: "Arrangement" }).waitFor();
    expect(await rows(page)).toEqual(["1:Landing pages", "1:Navigation", "1:Featured", "2:Post", "2:Photos", "2:Spring launch notes", "1:Blog"]);
    for (const name of ["Save", "Save details", "Delete workspace", "Add folder", "Remove Blog", "Move Blog up", "Set as project default", "Save assignment"]) {
      expect({ name, count: await page.getByRole("button", { name, exact: true }).count() }).toEqual({ name, count: 0 });
    }
    expect(await page.locator("[draggable=true]").count()).toBe(0);
    expect(await page.getByLabel("Name", { exact: true }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, "workspace-viewer-360-dark");
    // The viewer's rail shows the default; Use switches to Shop.
    await openWorkspaces(page);
    expect(await page.getByRole("button", { name: "New workspace" }).count()).toBe(0);
    await page.getByRole("button", { name: "Use Shop" }).click();
    // At 360 px the rail is in the menu dialog.
    await (await rail(page)).getByRole("button", { name: "▾ Products" }).waitFor();
  }, 60_000);

  test("deleting a workspace asks first and leaves every record as it was", async () => {
    const doomed = await v2(env, "POST", "/v2/workspaces", { name: "Scratch", tree: [{ model: "post" }] });
    const models = await v2(env, "GET", "/v2/models");
    const page = await env.page();
    await signIn(page, env.origin, `/admin/workspaces/${doomed.id}`);
    await page.getByRole("heading", { name: "Scratch", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Delete workspace" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Scratch?" });
    await dialog.getByText("Models, entries and media stay exactly as they are.", { exact: false }).waitFor();
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect((await v2(env, "GET", "/v2/workspaces")).data.map((w: any) => w.name)).toContain("Scratch");
    await page.getByRole("button", { name: "Delete workspace" }).click();
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("heading", { name: "Workspaces", level: 1 }).waitFor();
    await page.getByRole("link", { name: "Scratch" }).waitFor({ state: "detached" });
    expect((await v2(env, "GET", "/v2/workspaces")).data.map((w: any) => w.name)).toEqual(["Editorial desk", "Shop"]);
    expect(await v2(env, "GET", "/v2/models")).toEqual(models);
  }, 60_000);
});
