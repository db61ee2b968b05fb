// Issue 14's "Done when" as one story in one browser: an owner who starts from the README signs
// in, creates a model with a relation and a media field, lays out its editor in two cards,
// arranges a workspace, uploads images, writes and publishes an entry with one of them, mints a
// production key and reads the entry with it, adds a webhook and sees its deliveries, and invites
// an editor, who accepts and sees the workspace but no keys or webhooks. Everything is done
// through the screens; /v2, /api and the webhook receiver are only read to check each step.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { addField, EDITOR_SCREENS, facts, flatPng, layoutCard, OWNER_SCREENS, placed, readWith, rowOf, savedCard, stripIds } from "./journey-helpers.ts";
import { signInAs } from "./people-helpers.ts";
import { Receiver, testCerts } from "../webhooks/receiver.ts";

let env: BrowserEnv;
let receiver: Receiver;
beforeAll(async () => {
  const certs = await testCerts();
  receiver = new Receiver(certs);
  env = await startBrowserEnv({ webhookAllowPrivate: true, webhookCaFile: certs.caFile });
}, 60_000);
afterAll(async () => {
  receiver?.stop();
  await env?.close();
});

const EDITOR = { email: "sam@capa.local", password: "sam-password-1" };

describe("the owner's journey", () => {
  test("model, layout, workspace, media, entry, key, webhook, an invited editor: all in the browser", async () => {
    const page = await env.page({ height: 1000 });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.origin });
    const screens = page.getByRole("navigation", { name: "Screens" });
    const rail = page.getByRole("navigation", { name: "Workspace" });

    // 1. The README's owner signs in and lands on the project's home.
    await signIn(page, env.origin);
    await page.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
    expect(await screens.getByRole("link").allTextContents()).toEqual(OWNER_SCREENS);
    await screenshot(page, "journey-1-signed-in");

    // 2. A Product model: a required Text title, a Relation to Author and an Image.
    await screens.getByRole("link", { name: "Models" }).click();
    await page.getByRole("heading", { name: "Models", level: 1 }).waitFor();
    await page.getByRole("button", { name: "New model" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Product");
    expect(await page.getByLabel("Namespace").inputValue()).toBe("product");
    await page.getByRole("button", { name: "Create model" }).click();
    await page.getByRole("heading", { name: "Product", level: 1 }).waitFor();
    await page.getByText("No fields yet.", { exact: false }).waitFor();
    const modelId = new URL(page.url()).pathname.split("/").pop()!;
    await addField(page, { label: "Title", kind: "Text", required: true });
    await addField(page, { label: "Maker", kind: "Relation", related: "Author" });
    await addField(page, { label: "Photo", kind: "Image" });
    await rowOf(page, "Photo").waitFor();
    expect(await rowOf(page, "Title").getByRole("cell").allTextContents()).toEqual(["title", "Text", "Required", "Move upMove downEditRemove"]);
    expect(await rowOf(page, "Maker").getByRole("cell").allTextContents()).toEqual(["maker", "Relation to Author", "Optional", "Move upMove downEditRemove"]);
    expect(await rowOf(page, "Photo").getByRole("cell").allTextContents()).toEqual(["photo", "Image", "Optional", "Move upMove downEditRemove"]);
    const model = await v2(env, "GET", `/v2/models/${modelId}`);
    const author = await v2(env, "GET", "/v2/models/author");
    expect(model.fields.map((f: any) => [f.namespace, f.type, f.required, f.relation ?? null])).toEqual([
      ["title", "string", true, null],
      ["maker", "relation", false, author.id],
      ["photo", "image", false, null],
    ]);
    const f = Object.fromEntries(model.fields.map((x: { namespace: string; id: string }) => [x.namespace, x.id])) as Record<string, string>;
    await screenshot(page, "journey-2-model");

    // 3. Its entry layout: Details in main (Title, Photo), Credits in aside (Maker), by Move to.
    await page.getByRole("link", { name: "Edit layout" }).click();
    await page.getByRole("heading", { name: "Layout of Product", level: 1 }).waitFor();
    const card = (title: string) => layoutCard(page, title);
    await page.getByRole("button", { name: "Add card to main" }).click();
    await card("Card 1").getByLabel("Title", { exact: true }).fill("Details");
    await page.getByRole("button", { name: "Add card to aside" }).click();
    await card("Card 2").getByLabel("Title", { exact: true }).fill("Credits");
    await page.getByLabel("Move Title to").selectOption({ label: "Main: Details" });
    await page.getByLabel("Move Photo to").selectOption({ label: "Main: Details" });
    await page.getByLabel("Move Maker to").selectOption({ label: "Aside: Credits" });
    expect(await placed(card("Details"))).toEqual(["Title", "Photo"]);
    expect(await placed(card("Credits"))).toEqual(["Maker"]);
    await page.getByText("2 of 50 cards, 3 of 500 fields placed. Unsaved changes.").waitFor();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Save layout" }).click();
    await page.getByText("Layout saved. The entry editor of this model follows it now.").waitFor();
    // A relation placed without a display choice keeps none: the editor's default (a picker) applies.
    expect((await v2(env, "GET", `/v2/models/${modelId}`)).layout).toEqual({
      v: 1,
      main: [savedCard("card-1", "Details", [f.title!, f.photo!])],
      aside: [savedCard("card-2", "Credits", [f.maker!])],
    });
    await screenshot(page, "journey-3-layout");

    // 4. A workspace, Storefront: a Catalogue folder holding Product; used and made the default.
    await screens.getByRole("link", { name: "Workspaces" }).click();
    await page.getByRole("heading", { name: "Workspaces", level: 1 }).waitFor();
    await page.getByText("No workspaces yet").waitFor();
    await page.getByRole("button", { name: "New workspace" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Storefront");
    await page.getByRole("button", { name: "Create workspace" }).click();
    await page.getByRole("heading", { name: "Storefront", level: 1 }).waitFor();
    await page.getByLabel("Folder name").fill("Catalogue");
    await page.getByRole("button", { name: "Add folder" }).click();
    await page.getByLabel("Model", { exact: true }).selectOption({ label: "Product" });
    await page.getByRole("button", { name: "Add model" }).click();
    await page.getByRole("button", { name: "Move Product to folder" }).click();
    const move = page.getByRole("dialog", { name: "Move Product" });
    await move.getByLabel("Folder").selectOption({ label: "Catalogue" });
    await move.getByRole("button", { name: "Move" }).click();
    await page.getByRole("button", { name: "Outdent Product" }).waitFor();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Arrangement saved.", { exact: true }).waitFor();
    const workspace = (await v2(env, "GET", "/v2/workspaces")).data[0];
    expect([workspace.name, workspace.template, workspace.visibility]).toEqual(["Storefront", "blank", "team"]);
    expect(stripIds((await v2(env, "GET", `/v2/workspaces/${workspace.id}/document`)).tree)).toEqual([
      { folder: "Catalogue", icon: null, children: [{ model: "product" }] },
    ]);
    // The first workspace is already the owner's current one (no Use button); it becomes the default.
    expect(await page.getByRole("button", { name: "Use this workspace" }).count()).toBe(0);
    await page.getByRole("button", { name: "Set as project default" }).click();
    await page.getByText("Storefront is now the project's default workspace.").waitFor();
    await page.getByRole("button", { name: "Set as project default" }).waitFor({ state: "detached" });
    expect(await facts(page)).toMatchObject({ Visibility: "Team", "Project default": "Yes", "Your current workspace": "Yes" });
    await rail.getByRole("link", { name: "Product" }).waitFor();
    expect(await rail.getByRole("button").allTextContents()).toEqual(["▾ Catalogue"]);
    expect(await rail.getByRole("link").allTextContents()).toEqual(["Product"]);
    expect(await v2(env, "GET", "/v2/workspaces")).toMatchObject({ current: workspace.id, default: workspace.id });
    await screenshot(page, "journey-4-workspace");

    // 5. Two pictures by the Upload button; then a Product entry with one of them and its maker.
    await screens.getByRole("link", { name: "Media" }).click();
    await page.getByRole("heading", { name: "Media", level: 1 }).waitFor();
    await page.getByLabel("Upload", { exact: true }).setInputFiles([
      { name: "lamp-red.png", mimeType: "image/png", buffer: await flatPng(64, 48, "#c0392b") },
      { name: "lamp-blue.png", mimeType: "image/png", buffer: await flatPng(80, 40, "#2e86c1") },
    ]);
    const uploads = page.getByRole("region", { name: "Uploads" });
    for (const name of ["lamp-red.png", "lamp-blue.png"]) await uploads.getByRole("listitem").filter({ hasText: name }).getByText("Uploaded").waitFor();
    await uploads.getByText("All finished").waitFor();
    const grid = page.getByRole("list", { name: "Files: All files" });
    for (const name of ["lamp-red.png", "lamp-blue.png"]) await grid.getByRole("link", { name, exact: true }).waitFor();
    const uploaded = (await v2(env, "GET", "/v2/media?q=lamp-")).data as any[];
    expect(uploaded.map((m) => [m.filename, m.kind, m.width, m.height]).sort()).toEqual([
      ["lamp-blue.png", "image", 80, 40],
      ["lamp-red.png", "image", 64, 48],
    ]);
    const red = uploaded.find((m) => m.filename === "lamp-red.png");
    await screenshot(page, "journey-5-media");

    await rail.getByRole("link", { name: "Product" }).click();
    await page.getByRole("heading", { name: "Product", level: 1 }).waitFor();
    await page.getByRole("link", { name: "New entry" }).click();
    await page.getByRole("heading", { name: "New Product", level: 1 }).waitFor();
    const details = page.getByRole("region", { name: "Details", exact: true });
    await details.getByLabel("Title", { exact: true }).fill("Red lamp");
    await details.getByRole("button", { name: "Photo", exact: true }).click();
    const library = page.getByRole("dialog", { name: "Choose a file for Photo" });
    await library.getByLabel("Search the library").fill("lamp-");
    await library.getByRole("button", { name: "Choose lamp-blue.png" }).waitFor();
    await library.getByRole("button", { name: "Choose lamp-red.png" }).click();
    await details.getByText("lamp-red.png", { exact: true }).waitFor();
    const credits = page.getByRole("region", { name: "Credits", exact: true });
    await credits.getByRole("button", { name: "Choose Maker" }).click();
    const makers = page.getByRole("dialog", { name: "Choose Maker" });
    await makers.getByLabel("Search Author").fill("Mei");
    await makers.getByRole("button", { name: "Choose Mei Lin" }).click();
    await credits.getByText("Mei Lin").waitFor();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    // The first save makes the entry: the editor moves to its own URL, titled by it, and says so.
    await page.getByRole("heading", { name: "Red lamp", level: 1 }).waitFor();
    await page.getByText("Saved.").waitFor();
    await page.waitForURL(/\/admin\/content\/product\/[0-9a-f-]{36}$/);
    const entryId = new URL(page.url()).pathname.split("/").pop()!;
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.getByText("Published.").waitFor();
    const mei = (await v2(env, "GET", "/v2/model-instances?model=author&q=Mei")).data[0];
    const saved = await v2(env, "GET", `/v2/model-instances/${entryId}`);
    expect([saved.status, saved.draft.data]).toEqual(["published", { title: "Red lamp", maker: mei.id, photo: { id: red.id, alt: null } }]);
    await screenshot(page, "journey-5-entry");

    // 6. A production read key: the secret is shown once, copied, and reads the published entry.
    await screens.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("heading", { name: "API keys", level: 1 }).waitFor();
    await page.getByRole("button", { name: "New key" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Website");
    await page.getByLabel("Access").getByRole("option", { name: "Read only" }).waitFor({ state: "attached" });
    await page.getByLabel("Access").selectOption({ label: "Read only" });
    await page.getByLabel("Environment").selectOption({ label: "Production" });
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("heading", { name: "Key Website created" }).waitFor();
    const secret = await page.getByLabel("Secret").inputValue();
    expect(secret).toMatch(/^svc_live_/);
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByText("Copied to the clipboard.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.getByRole("button", { name: "Done" }).click();
    const keyRow = rowOf(page, "Website");
    await keyRow.waitFor();
    const keyCells = await keyRow.getByRole("cell").allTextContents();
    expect([keyCells[0], keyCells[2], keyCells[3]]).toEqual([`${secret.slice(0, 12)}… Production`, "2026-10-01", "Active"]);
    // The access: the preset's name, then what the key may do in words (keys.browser.test.ts).
    await keyRow.getByRole("cell").nth(1).getByText("Read only", { exact: true }).waitFor();
    const read = await readWith(env.origin, secret, "/api/entries/product");
    expect(read.status).toBe(200);
    // The media reference reads as the file's six keys; its alt falls back to the file's (none).
    const fileUrl = `${env.capa.services.config.mediaBaseUrl}/media/${env.demoProjectId}/${red.id}/lamp-red.png`;
    const photo = { id: red.id, url: fileUrl, alt: "", type: "image", width: 64, height: 48 };
    const { createdAt, updatedAt, publishedAt } = read.body.data[0];
    const system = { id: entryId, model: "product", status: "published", version: 1, folder: null, tags: [], createdAt, updatedAt, publishedAt };
    expect(read.body.data).toEqual([{ ...system, title: "Red lamp", maker: mei.id, photo }]);
    expect([createdAt, publishedAt]).toEqual([saved.createdAt, saved.publishedAt]);
    await screenshot(page, "journey-6-key");

    // 7. A webhook to a local HTTPS receiver: Send test, then a real publish, each in the log.
    await screens.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
    await page.getByRole("button", { name: "New webhook" }).click();
    const url = receiver.url("/journey");
    await page.getByLabel("URL").fill(url);
    await page.getByLabel("Description").fill("Rebuild the site");
    await page.getByRole("button", { name: "Create webhook" }).click();
    await page.getByRole("heading", { name: "Webhook created" }).waitFor();
    const signing = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
    await page.getByRole("button", { name: "Done" }).click();
    const hookRow = page.getByRole("row").filter({ has: page.getByRole("link", { name: url }) });
    await hookRow.waitFor();
    expect(await hookRow.getByRole("cell").allTextContents()).toEqual(["Entry published, Entry unpublished, Entry deleted", "Not included", "On"]);
    await page.getByRole("link", { name: url }).click();
    await page.getByRole("heading", { name: url, level: 1 }).waitFor();
    const deliver = () => env.capa.services.webhooks.runDue(Date.now());
    await page.getByRole("button", { name: "Send test" }).click();
    await page.getByRole("listitem", { name: "Test delivery, Pending" }).waitFor();
    await deliver();
    await page.getByRole("listitem", { name: "Test delivery, Succeeded" }).getByText("1 attempt, last HTTP 200").waitFor();

    // Publish again (a new alt text for the photo): the log shows the entry's delivery.
    await page.goto(`${env.origin}/admin/content/product/${entryId}`);
    await page.getByLabel("Alt text of Photo").fill("A red lamp");
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.getByText("Published.").waitFor();
    await page.goBack();
    await page.getByRole("heading", { name: url, level: 1 }).waitFor();
    await page.getByRole("listitem", { name: "Entry published delivery, Pending" }).waitFor();
    await deliver();
    const published = page.getByRole("listitem", { name: "Entry published delivery, Succeeded" });
    await published.getByText("1 attempt, last HTTP 200").waitFor();
    await published.getByRole("button", { name: "Details" }).click();
    // The attempts' table renders after the click: wait for its first row before reading it.
    await published.getByRole("row").nth(1).getByRole("cell").nth(2).waitFor();
    expect((await published.getByRole("row").nth(1).getByRole("cell").allTextContents())[2]).toBe("HTTP 200");
    // What arrived is signed with the secret shown once: the test, then this entry's second version.
    const got = receiver.on("/journey").map((r) => new Webhook(signing).verify(r.body, r.headers) as { type: string; data: Record<string, unknown> });
    expect(got.map((p) => p.type)).toEqual(["webhook.test", "instance.published"]);
    expect(got[1]!.data).toMatchObject({ instanceId: entryId, modelId, modelNamespace: "product", versionNumber: 2, title: "Red lamp" });
    await expectAccessible(page);
    await screenshot(page, "journey-7-webhook");

    // 8. An editor invited: the link is opened in a fresh page, accepted, and the editor signs in.
    await screens.getByRole("link", { name: "People" }).click();
    await page.getByRole("heading", { name: "People", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Invite" }).click();
    await page.getByLabel("Email").fill(EDITOR.email);
    await page.getByLabel("Role", { exact: true }).selectOption({ label: "Editor" });
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page.getByRole("heading", { name: `Invitation for ${EDITOR.email}` }).waitFor();
    const link = await page.getByRole("textbox", { name: "Invitation link" }).inputValue();
    expect(link).toMatch(new RegExp(`^${env.origin}/admin/invite\\?token=inv_`));
    // The list is asked for again after the invitation: the pending row appears.
    await rowOf(page, EDITOR.email).waitFor();
    await screenshot(page, "journey-8-invited");

    const sam = await env.page();
    await sam.goto(link);
    await sam.getByRole("heading", { name: "Join a project on Capa" }).waitFor();
    await sam.getByLabel("New password").fill(EDITOR.password);
    await sam.getByRole("button", { name: "Accept and sign in" }).click();
    await sam.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
    await sam.getByRole("button", { name: "Sign out", exact: true }).click();
    await sam.getByRole("heading", { name: "Sign in to Capa" }).waitFor();
    await signInAs(sam, env.origin, EDITOR.email, EDITOR.password);
    const samRail = sam.getByRole("navigation", { name: "Workspace" });
    await samRail.getByRole("link", { name: "Product" }).waitFor();
    expect(await samRail.getByRole("button").allTextContents()).toEqual(["▾ Catalogue"]);
    // The same screens as the owner's but API keys and Webhooks.
    expect(await sam.getByRole("navigation", { name: "Screens" }).getByRole("link").allTextContents()).toEqual(EDITOR_SCREENS);
    await samRail.getByRole("link", { name: "Product" }).click();
    await sam.getByRole("link", { name: "Red lamp" }).waitFor();
    const members = (await v2(env, "GET", `/v2/projects/${env.demoProjectId}/members`)).data as { email: string; role: string }[];
    expect(members.map((m) => `${m.email} ${m.role}`).sort()).toEqual(["owner@capa.local owner", `${EDITOR.email} editor`]);
    await screenshot(sam, "journey-8-editor");
  }, 180_000);
});
