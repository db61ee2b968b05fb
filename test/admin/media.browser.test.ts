// A media field in the entry editor, as an editor uses it: upload a picture into the library
// from the field, choose another from the library by search, write the field's alt text, save;
// the saved value is a library reference `{ id, alt? }` (decisions.md section 10).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { png64 } from "../media/fixtures.ts";

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  await env?.close();
});

describe("media fields", () => {
  test("upload into the library from the field, choose from the library, alt text; saved as a reference", async () => {
    const made = await v2(env, "POST", "/v2/model-instances", { model: "post", data: { title: "Pictured note", slug: "pictured-note" } });
    const page = await env.page();
    await signIn(page, env.origin);
    await page.goto(`${env.origin}/admin/content/post/${made.id}`);
    await page.getByRole("heading", { name: "Pictured note", level: 1 }).waitFor();

    // Upload from the field: the file goes into the library and the field refers to it.
    await page.getByLabel("Upload Cover image").setInputFiles({ name: "field-upload.png", mimeType: "image/png", buffer: Buffer.from(await png64()) });
    await page.getByText("field-upload.png").waitFor();
    await page.getByLabel("Alt text of Cover image").fill("A small test picture");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    const uploaded = (await v2(env, "GET", "/v2/media?q=field-upload")).data[0];
    expect(uploaded).toMatchObject({ filename: "field-upload.png", kind: "image", mimeType: "image/png", width: 64, height: 48 });
    expect((await v2(env, "GET", `/v2/model-instances/${made.id}`)).draft.data.cover).toEqual({ id: uploaded.id, alt: "A small test picture" });
    await expectAccessible(page);
    await screenshot(page, "entry-media-field");

    // Choose another file of the library by search.
    await page.getByRole("button", { name: "Cover image", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Choose a file for Cover image" });
    await dialog.getByLabel("Search the library").fill("field-upload");
    await dialog.getByRole("button", { name: "Choose field-upload.png" }).waitFor();
    await expectAccessible(page);
    await dialog.getByLabel("Search the library").fill("");
    const others = dialog.getByRole("button", { name: /^Choose (?!field-upload)/ });
    await others.first().waitFor();
    const name = ((await others.first().textContent()) ?? "").replace(/^Choose /, "");
    await others.first().click();
    await page.getByText(name).waitFor();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    const chosen = (await v2(env, "GET", `/v2/media?q=${encodeURIComponent(name)}`)).data[0];
    // A reference without alt text of its own (the file's alt shows through on reads).
    expect((await v2(env, "GET", `/v2/model-instances/${made.id}`)).draft.data.cover).toEqual({ id: chosen.id, alt: null });

    // The same bytes again under another name: the field takes the file the library has, no copy.
    await page.getByLabel("Upload Cover image").setInputFiles({ name: "field-again.png", mimeType: "image/png", buffer: Buffer.from(await png64()) });
    expect(await page.getByRole("alert").filter({ hasText: "in the library already" }).textContent()).toBe(
      "field-again.png is in the library already as field-upload.png; the field uses that file.",
    );
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    expect((await v2(env, "GET", `/v2/model-instances/${made.id}`)).draft.data.cover).toEqual({ id: uploaded.id, alt: null });
    expect((await v2(env, "GET", "/v2/media?q=field-")).data.map((f: { filename: string }) => f.filename)).toEqual(["field-upload.png"]);

    // Remove empties the field.
    await page.getByRole("button", { name: "Remove Cover image" }).click();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    expect((await v2(env, "GET", `/v2/model-instances/${made.id}`)).draft.data.cover).toBeNull();
  });
});
