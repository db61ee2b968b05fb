// The Models screens in a real browser: the list, New model, details saved, fields added of
// several kinds with their options (enum values, list item kind, relation target, required), a
// duplicate namespace refused at its field, a field removed, and a type change on a model with
// entries opening the field-change plan with its counts, then applied and followed to done; fields
// reordered (Move up, Move down, dragging). A viewer reads only.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { addMember, signInAs } from "./people-helpers.ts";
import { runFieldChanges } from "../../src/domain/field-changes/runner.ts";

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  await env?.close();
});

async function addField(page: Page, f: { label: string; kind: string; item?: string; related?: string; values?: string; required?: boolean }) {
  await page.getByRole("button", { name: "Add field" }).click();
  const d = page.getByRole("dialog", { name: "Add field" });
  await d.getByLabel("Label").fill(f.label);
  await d.getByLabel("Type", { exact: true }).selectOption({ label: f.kind });
  if (f.item) await d.getByLabel("Item type").selectOption({ label: f.item });
  if (f.related) await d.getByLabel("Related model").selectOption({ label: f.related });
  if (f.values) await d.getByLabel("Values").fill(f.values);
  if (f.required) await d.getByLabel("Required").check();
  await d.getByRole("button", { name: "Add field" }).click();
}

function fieldRow(page: Page, name: string) {
  return page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
}

describe("models", () => {
  test("new model, details, fields of several kinds, a refusal at its field, remove, plan and apply", async () => {
    const page = await env.page();
    await signIn(page, env.origin);
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Models" }).click();
    await page.getByRole("heading", { name: "Models", level: 1 }).waitFor();
    await page.getByRole("table").waitFor();
    expect(await page.getByRole("table").getByRole("link").allTextContents()).toEqual(["Author", "Category", "Post", "Settings"]);

    await page.getByRole("button", { name: "New model" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Product Page");
    expect(await page.getByLabel("Namespace").inputValue()).toBe("product_page");
    await page.getByLabel("Namespace").fill("product");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Create model" }).click();
    await page.getByRole("heading", { name: "Product Page", level: 1 }).waitFor();
    await page.getByText("No fields yet.", { exact: false }).waitFor();

    await page.getByLabel("Description").fill("Things we sell");
    await page.getByRole("button", { name: "Save details" }).click();
    await page.getByText("Model saved.").waitFor();

    await addField(page, { label: "Title", kind: "Text", required: true });
    await page.getByText("Field title added.").waitFor();
    await addField(page, { label: "Size", kind: "Choice (enum)", values: "S\nM\nL" });
    await page.getByText("Field size added.").waitFor();
    await addField(page, { label: "Tags", kind: "List", item: "Text" });
    await page.getByText("Field tags added.").waitFor();
    await addField(page, { label: "Maker", kind: "Relation", related: "Author" });
    await page.getByText("Field maker added.").waitFor();
    // Each addition asks for the model again; wait for the last row before reading the table.
    await fieldRow(page, "Maker").waitFor();
    expect(await fieldRow(page, "Title").getByRole("cell").allTextContents()).toEqual(["title", "Text", "Required", "Move upMove downEditRemove"]);
    expect(await fieldRow(page, "Size").getByRole("cell").allTextContents()).toEqual([
      "size",
      "Choice (enum) (S, M, L)",
      "Optional",
      "Move upMove downEditRemove",
    ]);
    expect(await fieldRow(page, "Tags").getByRole("cell").allTextContents()).toEqual(["tags", "List of Text", "Optional", "Move upMove downEditRemove"]);
    expect(await fieldRow(page, "Maker").getByRole("cell").allTextContents()).toEqual([
      "maker",
      "Relation to Author",
      "Optional",
      "Move upMove downEditRemove",
    ]);

    // A second field named title: the server's refusal is shown at the Namespace input.
    await page.getByRole("button", { name: "Add field" }).click();
    const add = page.getByRole("dialog", { name: "Add field" });
    await add.getByLabel("Label").fill("Title");
    await add.getByRole("button", { name: "Add field" }).click();
    await add.getByText('Two fields are named "title"').waitFor();
    expect(await add.getByLabel("Namespace").getAttribute("aria-invalid")).toBe("true");
    await expectAccessible(page);
    await add.getByRole("button", { name: "Cancel" }).click();

    await page.getByRole("button", { name: "Remove tags" }).click();
    await page.getByRole("dialog", { name: "Remove tags?" }).getByRole("button", { name: "Remove" }).click();
    await page.getByText("Field tags removed.").waitFor();
    await page.getByRole("rowheader", { name: "Tags" }).waitFor({ state: "detached" });
    await screenshot(page, "model-fields");
    const model = (await v2(env, "GET", "/v2/models")).data.find((m: { namespace: string }) => m.namespace === "product");
    expect(model.fields.map((f: { namespace: string }) => f.namespace)).toEqual(["title", "size", "maker"]);
    expect(model.description).toBe("Things we sell");

    // With an entry, turning the text title into a number needs a field change: the plan opens.
    await v2(env, "POST", "/v2/model-instances", { model: "product", data: { title: "Blue shirt", size: "M" } });
    await page.getByRole("button", { name: "Edit title" }).click();
    const edit = page.getByRole("dialog", { name: "Edit title" });
    await edit.getByLabel("Type", { exact: true }).selectOption({ label: "Number" });
    await edit.getByRole("button", { name: "Save field" }).click();
    const plan = page.getByRole("dialog", { name: "Change title: the plan" });
    await plan.getByText("This change rewrites stored values of 1 entry.", { exact: false }).waitFor();
    expect(await plan.getByRole("list", { name: "Values of title" }).getByRole("listitem").allTextContents()).toEqual([
      "1 values",
      "0 convert",
      "0 lose detail",
      "1 fail",
    ]);
    await plan.getByLabel("What to do with title").selectOption({ label: "Clear the values" });
    await expectAccessible(page);
    await screenshot(page, "model-plan");
    await plan.getByRole("button", { name: "Apply" }).click();
    await page.getByText(/^The change of title is \w+; the entries are converted in the background\.$/).waitFor();
    const changes = await v2(env, "GET", `/v2/models/${model.id}/field-changes`);
    expect(changes.data).toHaveLength(1);
    // Live progress: the card follows the change as the background job (run here by hand, as
    // the server's jobs are not started in tests) converts the entry and moves the model.
    const progress = page.getByRole("region", { name: "Field change" });
    await progress.getByText("Queued.", { exact: true }).waitFor();
    expect(await progress.getByRole("button", { name: "Cancel change" }).count()).toBe(1);
    for (let i = 0; i < 10; i++) {
      await runFieldChanges(env.capa.services, Date.now());
      if ((await v2(env, "GET", `/v2/field-changes/${changes.data[0].id}`)).state === "done") break;
    }
    await progress.getByText("Done: 1 of 1 entries converted.").waitFor();
    await fieldRow(page, "Title").getByRole("cell", { name: "Number" }).waitFor();
    expect(await progress.getByRole("button", { name: "Cancel change" }).count()).toBe(0);

    // A second change, cancelled before the job takes it: the model keeps its size field.
    await page.getByRole("button", { name: "Edit size" }).click();
    await page.getByRole("dialog", { name: "Edit size" }).getByLabel("Type", { exact: true }).selectOption({ label: "Number" });
    await page.getByRole("dialog", { name: "Edit size" }).getByRole("button", { name: "Save field" }).click();
    await page.getByRole("dialog", { name: "Change size: the plan" }).getByRole("button", { name: "Apply" }).click();
    await progress.getByText("Queued.", { exact: true }).waitFor();
    await progress.getByRole("button", { name: "Cancel change" }).click();
    await progress.getByText("Cancelled.", { exact: true }).waitFor();
    await runFieldChanges(env.capa.services, Date.now());
    expect(await fieldRow(page, "Size").getByRole("cell").nth(1).textContent()).toBe("Choice (enum) (S, M, L)");
  }, 120_000);

  test("fields reordered with Move up and Move down from the keyboard and by dragging, saved as fieldOrder", async () => {
    await v2(env, "POST", "/v2/models", {
      name: "Recipe",
      namespace: "recipe",
      fields: [
        { namespace: "title", label: "Title", type: "string" },
        { namespace: "time", label: "Time", type: "number" },
        { namespace: "serves", label: "Serves", type: "number" },
      ],
    });
    const saved = async () => (await v2(env, "GET", "/v2/models")).data.find((m: { namespace: string }) => m.namespace === "recipe");
    const before = await saved();
    const page = await env.page();
    await signIn(page, env.origin, `/admin/models/${before.id}`);
    await page.getByRole("heading", { name: "Recipe", level: 1 }).waitFor();
    const table = page.getByRole("table", { name: "Fields of Recipe" });
    const shown = () => table.getByRole("rowheader").allTextContents();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
    expect(await shown()).toEqual(["Title", "Time", "Serves"]);
    expect(await page.getByRole("button", { name: "Move up title" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Move down serves" }).isDisabled()).toBe(true);

    await page.getByRole("button", { name: "Move down title" }).focus();
    await page.keyboard.press("Enter");
    await page.getByText("Field title moved down.").waitFor();
    await table.getByRole("row").nth(2).getByRole("rowheader", { name: "Title" }).waitFor();
    expect(await shown()).toEqual(["Time", "Title", "Serves"]);
    expect((await saved()).fields.map((f: { namespace: string }) => f.namespace)).toEqual(["time", "title", "serves"]);
    expect(await focused()).toBe("Move down title");
    // Again from the keyboard: title is last now, so the focus goes to its Move up.
    await page.keyboard.press("Enter");
    await table.getByRole("row").nth(3).getByRole("rowheader", { name: "Title" }).waitFor();
    expect(await focused()).toBe("Move up title");
    await page.keyboard.press("Enter");
    await page.getByText("Field title moved up.").waitFor();
    await table.getByRole("row").nth(2).getByRole("rowheader", { name: "Title" }).waitFor();
    expect(await shown()).toEqual(["Time", "Title", "Serves"]);

    // Dragging Serves onto Time puts it first.
    await table.getByRole("rowheader", { name: "Serves" }).dragTo(table.getByRole("rowheader", { name: "Time" }));
    await page.getByText("Field serves moved.").waitFor();
    await table.getByRole("row").nth(1).getByRole("rowheader", { name: "Serves" }).waitFor();
    expect(await shown()).toEqual(["Serves", "Time", "Title"]);
    const after = await saved();
    expect(after.fields.map((f: { namespace: string }) => f.namespace)).toEqual(["serves", "time", "title"]);
    // Each move was one model version: four moves on version 1.
    expect(after.version).toBe(before.version + 4);
    await expectAccessible(page);
    await screenshot(page, "model-field-order");
  }, 60_000);

  test("a viewer reads models and fields without controls", async () => {
    await addMember(env, "viewer@capa.local", "viewer", "viewer-password-1");
    const page = await env.page();
    await signInAs(page, env.origin, "viewer@capa.local", "viewer-password-1", "/admin/models");
    await page.getByText("Your role (viewer) can read models; owners, admins and developers change them.").waitFor();
    expect(await page.getByRole("button", { name: "New model" }).count()).toBe(0);
    await page.getByRole("link", { name: "Post" }).first().click();
    await page.getByRole("heading", { name: "Post", level: 1 }).waitFor();
    expect(await page.getByRole("button", { name: "Add field" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Save details" }).count()).toBe(0);
    await expectAccessible(page);
  }, 60_000);
});
