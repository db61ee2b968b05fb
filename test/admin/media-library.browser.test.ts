// The media library screen (issue 14, decisions.md section 10) as an editor uses it: uploads by
// the Upload button and by dropping files, with progress and a refusal per file; the grid and the
// list; search and the kind filter in the URL; folders made, renamed, refused when not empty and
// deleted when empty; a file moved to a folder; the record editor (alt, title, focal point picked
// on the picture and by keys); usage; delete in use with the warning and Delete anyway; a viewer
// reads only; the rail's media folder node opens its folder. Every check reads /v2 afterwards.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { readMediaSettings } from "../../src/domain/media/settings.ts";
import { machine } from "../../src/infra/machine.ts";
import { jpeg1600, png64 } from "../media/fixtures.ts";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { addMember, signInAs } from "./people-helpers.ts";

/** The upload limit of this server, small enough that a 1600 px photo is refused. */
const LIMIT = 100 * 1024;

let env: BrowserEnv;
let page: Page;
/** The folder the first test makes, and the files it uploads into it, by name. */
let shootId = "";
const ids: Record<string, string> = {};

beforeAll(async () => {
  env = await startBrowserEnv({ media: { ...readMediaSettings({}, machine()), maxBytes: LIMIT } });
  page = await env.page();
  await signIn(page, env.origin, "/admin/media");
}, 60_000);
afterAll(async () => {
  await env?.close();
});

/** A PNG of one colour, `w` x `h`. */
async function flatPng(w: number, h: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width: w, height: h, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** The names of the files a grid or a table shows, in order. */
async function shownNames(label: string, role: "list" | "table"): Promise<string[]> {
  return page.getByRole(role, { name: label }).getByRole("link").allTextContents();
}

describe("the media library", () => {
  test("a folder is made; two files by Upload and one dropped arrive with progress; a too-large file is refused beside its name", async () => {
    await page.getByRole("heading", { name: "Media", level: 1 }).waitFor();
    await page.getByRole("button", { name: "New folder" }).click();
    const made = page.getByRole("dialog", { name: "New folder at the top" });
    await made.getByLabel("Name").fill("Test shoot");
    await made.getByRole("button", { name: "Create folder" }).click();
    await page.getByRole("heading", { name: "Test shoot", level: 2 }).waitFor();
    const folders = (await v2(env, "GET", "/v2/media-folders")).data;
    expect(folders.map((f: { name: string }) => f.name)).toEqual(["Test shoot"]);
    shootId = folders[0].id;
    expect(new URL(page.url()).searchParams.get("folder")).toBe(shootId);
    await page.getByText("No files here yet. Use “Upload” or drop files here.").waitFor();

    // Two files by the Upload button, and one refused for its size.
    await page.getByLabel("Upload", { exact: true }).setInputFiles([
      { name: "red-square.png", mimeType: "image/png", buffer: Buffer.from(await png64()) },
      { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("Shoot notes: three pictures.\n") },
      { name: "huge.jpg", mimeType: "image/jpeg", buffer: Buffer.from(await jpeg1600()) },
    ]);
    const uploads = page.getByRole("region", { name: "Uploads" });
    await uploads.getByRole("listitem").filter({ hasText: "huge.jpg" }).getByText("Too large: the limit is 100 KB.").waitFor();
    for (const name of ["red-square.png", "notes.txt"]) await uploads.getByRole("listitem").filter({ hasText: name }).getByText("Uploaded").waitFor();

    // One dropped on the library: a DataTransfer made in the page carries the file.
    const dropped = (await flatPng(400, 200, "#2e8b57")).toString("base64");
    const transfer = await page.evaluateHandle((b64) => {
      const t = new DataTransfer();
      t.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], "dropped.png", { type: "image/png" }));
      return t;
    }, dropped);
    const target = page.getByRole("heading", { name: "Test shoot", level: 2 });
    await target.dispatchEvent("dragenter", { dataTransfer: transfer });
    await page.getByText("Drop to upload into Test shoot").waitFor();
    await target.dispatchEvent("drop", { dataTransfer: transfer });
    await uploads.getByRole("listitem").filter({ hasText: "dropped.png" }).getByText("Uploaded").waitFor();
    await uploads.getByText("All finished: 3 of 4 uploaded, 1 refused", { exact: true }).waitFor();
    // Every sent file's bar is full; the refused one says why beside its name.
    for (const name of ["red-square.png", "notes.txt", "dropped.png"]) {
      expect(await uploads.getByRole("progressbar", { name: `Upload of ${name}` }).evaluate((el) => (el as HTMLProgressElement).value)).toBe(1);
    }
    expect(await uploads.getByRole("listitem").allTextContents()).toHaveLength(4);

    const inFolder = (await v2(env, "GET", `/v2/media?folder=${shootId}`)).data as { id: string; filename: string; kind: string; folder: string }[];
    expect(inFolder.map((f) => f.filename).sort()).toEqual(["dropped.png", "notes.txt", "red-square.png"]);
    expect(inFolder.every((f) => f.folder === shootId)).toBe(true);
    for (const f of inFolder) ids[f.filename] = f.id;
    expect((await v2(env, "GET", "/v2/media?q=huge")).data).toEqual([]);

    // The grid shows exactly the three, newest first.
    await page.getByText("3 files", { exact: true }).waitFor();
    expect(await shownNames("Files: Test shoot", "list")).toEqual(inFolder.map((f) => f.filename));
    await expectAccessible(page);
    await screenshot(page, "media-grid");
  }, 60_000);

  test("the list view shows kind, size and dimensions and is remembered; search and kind filter are in the URL", async () => {
    await page.getByRole("button", { name: "Clear finished" }).click();
    await page.getByRole("button", { name: "List" }).click();
    const table = page.getByRole("table", { name: "Files: Test shoot" });
    await table.waitFor();
    expect(new URL(page.url()).searchParams.get("view")).toBe("list");
    const row = table.getByRole("row").filter({ hasText: "red-square.png" });
    // The first cell holds the row's checkbox (editors select files to move or delete).
    expect(await row.getByRole("checkbox", { name: "Select red-square.png" }).isChecked()).toBe(false);
    expect((await row.getByRole("cell").allTextContents()).slice(1, 4)).toEqual(["Image", `${(await png64()).byteLength} bytes`, "64 × 48"]);
    expect(await table.getByRole("row").filter({ hasText: "notes.txt" }).getByRole("cell").nth(1).textContent()).toBe("Document");
    expect(await table.getByRole("row").filter({ hasText: "dropped.png" }).getByRole("cell").nth(3).textContent()).toBe("400 × 200");
    await expectAccessible(page);
    await screenshot(page, "media-list");

    // Opened again without `view`, the library keeps the list this browser chose.
    await page.goto(`${env.origin}/admin/media?folder=${shootId}`);
    await table.waitFor();
    expect(await page.getByRole("button", { name: "List" }).getAttribute("aria-pressed")).toBe("true");

    await page.getByLabel("Search").fill("red");
    await page.getByLabel("Search").press("Enter");
    await page.getByText("1 file", { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get("q")).toBe("red");
    expect(await shownNames("Files: Test shoot", "table")).toEqual(["red-square.png"]);

    await page.getByLabel("Search").fill("");
    await page.getByLabel("Search").press("Enter");
    await page.getByLabel("Kind").selectOption("image");
    await page.getByText("2 files", { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get("kind")).toBe("image");
    expect(await shownNames("Files: Test shoot", "table")).toEqual(["dropped.png", "red-square.png"]);
    await page.getByLabel("Kind").selectOption("document");
    await page.getByText("1 file", { exact: true }).waitFor();
    expect(await shownNames("Files: Test shoot", "table")).toEqual(["notes.txt"]);
    await page.getByLabel("Kind").selectOption("");
    await page.getByRole("button", { name: "Grid" }).click();
    await page.getByText("3 files", { exact: true }).waitFor();
  }, 60_000);

  test("All files comes 40 at a time; Load more follows the cursor to the last page", async () => {
    const all: string[] = [];
    let after: string | null = null;
    do {
      const p: { data: { filename: string }[]; next: string | null } = await v2(env, "GET", `/v2/media?limit=100${after ? `&after=${after}` : ""}`);
      all.push(...p.data.map((f) => f.filename));
      after = p.next;
    } while (after);
    // The demo project's pictures and this test's three: more than one page, fewer than two.
    expect(all.length).toBeGreaterThan(40);
    expect(all.length).toBeLessThanOrEqual(80);
    await page.getByRole("navigation", { name: "Media folders" }).getByRole("link", { name: "All files" }).click();
    await page.getByText(`Files 1–40 of ${all.length}`, { exact: true }).waitFor();
    expect(await shownNames("Files: All files", "list")).toEqual(all.slice(0, 40));
    await page.getByRole("button", { name: "Load more" }).click();
    await page.getByText(`${all.length} files`, { exact: true }).waitFor();
    expect(await shownNames("Files: All files", "list")).toEqual(all);
    expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);
    await page.getByRole("navigation", { name: "Media folders" }).getByRole("link", { name: "Test shoot" }).click();
    await page.getByText("3 files", { exact: true }).waitFor();
  }, 60_000);

  test("folders: rename, a refused delete of a folder with files, a file moved into another folder, an empty folder deleted", async () => {
    await page.getByRole("button", { name: "Rename folder" }).click();
    const rename = page.getByRole("dialog", { name: "Rename Test shoot" });
    await rename.getByLabel("Name").fill("Shoot one");
    await rename.getByRole("button", { name: "Rename" }).click();
    const nav = page.getByRole("navigation", { name: "Media folders" });
    await nav.getByRole("link", { name: "Shoot one" }).waitFor();
    expect((await v2(env, "GET", "/v2/media-folders")).data.map((f: { name: string }) => f.name)).toEqual(["Shoot one"]);

    await page.getByRole("button", { name: "Delete folder" }).click();
    const del = page.getByRole("dialog", { name: "Delete the folder Shoot one?" });
    await del.getByRole("button", { name: "Delete" }).click();
    expect(await del.getByRole("alert").textContent()).toBe("This folder is not empty: it holds 3 files. Move or delete them first.");
    await expectAccessible(page);
    await del.getByRole("button", { name: "Cancel" }).click();
    expect((await v2(env, "GET", "/v2/media-folders")).data).toHaveLength(1);

    // A second folder at the top, and notes.txt moved into it from its record.
    await nav.getByRole("link", { name: "All files" }).click();
    await page.getByRole("heading", { name: "All files", level: 2 }).waitFor();
    await page.getByRole("button", { name: "New folder" }).click();
    await page.getByRole("dialog", { name: "New folder at the top" }).getByLabel("Name").fill("Archive");
    await page.getByRole("button", { name: "Create folder" }).click();
    await page.getByRole("heading", { name: "Archive", level: 2 }).waitFor();
    const archive = (await v2(env, "GET", "/v2/media-folders")).data.find((f: { name: string }) => f.name === "Archive");
    await page.goto(`${env.origin}/admin/media/${ids["notes.txt"]}`);
    await page.getByRole("heading", { name: "notes.txt", level: 1 }).waitFor();
    await page.getByLabel("Folder").selectOption({ label: "Archive" });
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved.").waitFor();
    expect((await v2(env, "GET", `/v2/media/${ids["notes.txt"]}`)).folder).toBe(archive.id);
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Archive" }).click();
    await page.getByText("1 file", { exact: true }).waitFor();
    expect(await shownNames("Files: Archive", "list")).toEqual(["notes.txt"]);

    // An empty folder inside Archive goes; the library shows Archive again.
    await page.getByRole("button", { name: "New folder" }).click();
    await page.getByRole("dialog", { name: "New folder in Archive" }).getByLabel("Name").fill("Empty");
    await page.getByRole("button", { name: "Create folder" }).click();
    await page.getByRole("heading", { name: "Archive / Empty", level: 2 }).waitFor();
    await page.getByRole("button", { name: "Delete folder" }).click();
    await page.getByRole("dialog", { name: "Delete the folder Empty?" }).getByRole("button", { name: "Delete" }).click();
    await page.getByRole("heading", { name: "Archive", level: 2 }).waitFor();
    expect((await v2(env, "GET", "/v2/media-folders")).data.map((f: { name: string }) => f.name)).toEqual(["Archive", "Shoot one"]);
  }, 60_000);

  test("the record editor saves alt text, title and a focal point picked on the picture and moved by keys", async () => {
    await page.goto(`${env.origin}/admin/media/${ids["dropped.png"]}`);
    await page.getByRole("heading", { name: "dropped.png", level: 1 }).waitFor();
    await page.getByLabel("Alt text").fill("A green band");
    await page.getByLabel("Title").fill("Dropped picture");
    const picture = page.getByRole("button", { name: /^Focal point: the centre\./ });
    const box = (await picture.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.75);
    expect(await page.getByLabel("Across (%)").inputValue()).toBe("25");
    expect(await page.getByLabel("Down (%)").inputValue()).toBe("75");
    const moved = page.getByRole("button", { name: /^Focal point: 25% across, 75% down\./ });
    await moved.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Shift+ArrowUp");
    expect(await page.getByLabel("Across (%)").inputValue()).toBe("26");
    expect(await page.getByLabel("Down (%)").inputValue()).toBe("65");
    await page.getByText("Unsaved changes").waitFor();
    await expectAccessible(page);
    await screenshot(page, "media-record-editor");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved.").waitFor();
    expect(await v2(env, "GET", `/v2/media/${ids["dropped.png"]}`)).toMatchObject({
      alt: "A green band",
      title: "Dropped picture",
      focalPoint: { x: 0.26, y: 0.65 },
      filename: "dropped.png",
      folder: shootId,
    });

    // The percentage inputs set it exactly, and `Use the centre` clears it.
    await page.getByLabel("Across (%)").fill("40");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved.").waitFor();
    expect((await v2(env, "GET", `/v2/media/${ids["dropped.png"]}`)).focalPoint).toEqual({ x: 0.4, y: 0.65 });
    await page.getByRole("button", { name: "Use the centre" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved.").waitFor();
    expect((await v2(env, "GET", `/v2/media/${ids["dropped.png"]}`)).focalPoint).toBeNull();
  }, 60_000);

  test("usage lists the entry that uses a file; Delete warns while it is in use and Delete anyway removes it", async () => {
    const entry = await v2(env, "POST", "/v2/model-instances", {
      model: "post",
      data: { title: "Uses the square", slug: "uses-the-square", cover: { id: ids["red-square.png"] } },
    });
    await page.goto(`${env.origin}/admin/media/${ids["red-square.png"]}`);
    const usage = page.getByRole("region", { name: "Usage" });
    await usage.getByRole("link", { name: "Uses the square" }).waitFor();
    expect(await usage.getByRole("listitem").allTextContents()).toEqual(["Uses the square Post, in the draft"]);
    await usage.getByRole("link", { name: "Uses the square" }).click();
    await page.getByRole("heading", { name: "Uses the square", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/content/post/${entry.id}`);
    await page.goBack();

    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Delete red-square.png?" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    const warning = page.getByRole("dialog", { name: "red-square.png is in use" });
    expect(await warning.getByRole("alert").textContent()).toBe(
      "It is used by 1 entry. Deleting it leaves that entry with a missing file (reads answer null for it):",
    );
    expect(await warning.getByRole("link").allTextContents()).toEqual(["Uses the square"]);
    expect((await v2(env, "GET", `/v2/media/${ids["red-square.png"]}`)).id).toBe(ids["red-square.png"]);
    await expectAccessible(page);
    await warning.getByRole("button", { name: "Delete anyway" }).click();
    await page.getByRole("heading", { name: "Shoot one", level: 2 }).waitFor();
    expect(new URL(page.url()).searchParams.get("folder")).toBe(shootId);
    const gone = await fetch(`${env.origin}/v2/media/${ids["red-square.png"]}`, {
      headers: { authorization: `Bearer ${await env.token()}`, "x-svc-project": env.demoProjectId },
    });
    expect(gone.status).toBe(404);
    await page.getByText("1 file", { exact: true }).waitFor();
    expect(await shownNames("Files: Shoot one", "list")).toEqual(["dropped.png"]);
  }, 60_000);

  test("a viewer reads the library and a record without Upload, Save or Delete", async () => {
    await addMember(env, "viewer@capa.local", "viewer", "viewer-password-1");
    // On a phone, in the dark theme: the folders stack above the files.
    const viewer = await env.page({ width: 360, height: 800, colorScheme: "dark" });
    await signInAs(viewer, env.origin, "viewer@capa.local", "viewer-password-1", `/admin/media?folder=${shootId}`);
    await viewer.getByText("Your role (viewer) can look at the library; owners, admins and editors upload and change files.").waitFor();
    await viewer.getByRole("link", { name: "dropped.png" }).waitFor();
    await expectAccessible(viewer);
    await screenshot(viewer, "media-grid-360-dark");
    expect(await viewer.getByLabel("Upload", { exact: true }).count()).toBe(0);
    expect(await viewer.getByRole("button", { name: "New folder" }).count()).toBe(0);
    await viewer.getByRole("link", { name: "dropped.png" }).click();
    await viewer.getByRole("heading", { name: "dropped.png", level: 1 }).waitFor();
    expect(await viewer.getByLabel("Alt text").inputValue()).toBe("A green band");
    expect(await viewer.getByLabel("Alt text").isDisabled()).toBe(true);
    expect(await viewer.getByRole("button", { name: "Save", exact: true }).count()).toBe(0);
    expect(await viewer.getByRole("button", { name: "Delete", exact: true }).count()).toBe(0);
    await expectAccessible(viewer);
  }, 60_000);

  test("a workspace's media folder node names its folder and opens it", async () => {
    const ws = await v2(env, "POST", "/v2/workspaces", { name: "Pictures", template: "blank" });
    await v2(env, "POST", `/v2/workspaces/${ws.id}/nodes`, { node: { media_folder: shootId } });
    await v2(env, "PUT", "/v2/workspaces/current", { workspaceId: ws.id });
    await page.goto(`${env.origin}/admin/`);
    const rail = page.getByRole("navigation", { name: "Workspace" });
    await rail.getByRole("link", { name: "Shoot one" }).click();
    await page.getByRole("heading", { name: "Shoot one", level: 2 }).waitFor();
    expect(new URL(page.url()).searchParams.get("folder")).toBe(shootId);
    expect(await rail.getByRole("link", { name: "Shoot one" }).getAttribute("aria-current")).toBe("page");
  }, 60_000);
});
