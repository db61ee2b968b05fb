// Field changes on the model screen in a real browser (issue 14 item 1): a change that stops on
// values that cannot convert, its failed values listed (entry by title, field, copy, value,
// reason), resumed after a fix, resumed again clearing what still fails, followed live to done;
// and a cancelled change resumed from the change history. The job is run here by hand, as the
// server's background jobs are not started in browser tests.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { runFieldChanges } from "../../src/domain/field-changes/runner.ts";

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
}, 60_000);
afterAll(async () => {
  await env?.close();
});

/** Runs the field-change job until change `id` is in `state`. */
async function runUntil(id: string, state: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await runFieldChanges(env.capa.services, Date.now());
    if ((await v2(env, "GET", `/v2/field-changes/${id}`)).state === state) return;
  }
  throw new Error(`change ${id} never reached ${state}`);
}

function row(page: Page, name: string) {
  return page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
}

async function openModel(page: Page, name: string) {
  const id = (await v2(env, "GET", "/v2/models")).data.find((m: { name: string }) => m.name === name).id;
  await signIn(page, env.origin, `/admin/models/${id}`);
  await page.getByRole("heading", { name, level: 1 }).waitFor();
  return id as string;
}

/** Edits field `ns` to a number and applies the plan with convert and `onFailure`. */
async function toNumber(page: Page, ns: string, onFailure: "Empty it and list it" | "Stop the change and list it") {
  await page.getByRole("button", { name: `Edit ${ns}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${ns}` });
  await edit.getByLabel("Type", { exact: true }).selectOption({ label: "Number" });
  await edit.getByRole("button", { name: "Save field" }).click();
  const plan = page.getByRole("dialog", { name: `Change ${ns}: the plan` });
  await plan.getByLabel(`What to do with ${ns}`).selectOption({ label: "Convert the values" });
  await plan.getByLabel(`If a value of ${ns} cannot convert`).selectOption({ label: onFailure });
  await expectAccessible(page);
  await plan.getByRole("button", { name: "Apply" }).click();
}

describe("field changes: failures and resume", () => {
  test("a stopped change lists its failed values; resumed after a fix, then clearing the rest, it ends done", async () => {
    await v2(env, "POST", "/v2/models", {
      name: "Gadget",
      namespace: "gadget",
      fields: [
        { namespace: "title", type: "string" },
        { namespace: "size", type: "string" },
      ],
    });
    const ids: Record<string, string> = {};
    for (const [title, size] of [
      ["Alpha", "12"],
      ["Beta", "big"],
      ["Gamma", "huge"],
    ]) {
      ids[title!] = (await v2(env, "POST", "/v2/model-instances", { model: "gadget", data: { title, size } })).id;
    }
    const page = await env.page();
    const modelId = await openModel(page, "Gadget");
    const history = page.getByRole("region", { name: "Change history" });
    await history.getByText("No field changes yet.", { exact: false }).waitFor();

    await toNumber(page, "size", "Stop the change and list it");
    const changes = await v2(env, "GET", `/v2/models/${modelId}/field-changes`);
    expect(changes.data.map((c: { state: string }) => c.state)).toEqual(["queued"]);
    const changeId = changes.data[0].id;
    expect(changes.data[0].ops[0].decision).toEqual({ choice: "convert", onFailure: "stop" });
    const progress = page.getByRole("region", { name: "Field change", exact: true });
    await progress.getByText("Queued.", { exact: true }).waitFor();
    await runUntil(changeId, "failed");
    await progress.getByText("Failed: 3 of 3 entries converted, 2 values failed.").waitFor();
    expect(await progress.getByRole("button", { name: "Resume change" }).count()).toBe(1);

    // The history lists it with its counts; the model kept its text field.
    const first = row(page, "Change 1");
    await first.getByRole("cell", { name: "Failed", exact: true }).waitFor();
    const cells = await first.getByRole("cell").allTextContents();
    expect(cells.filter((_, i) => i !== 2)).toEqual(["size: Text → Number", "Failed", "3 of 3", "2", "DetailsResume"]);
    expect(await first.locator("time").getAttribute("datetime")).toBe(changes.data[0].createdAt);
    expect((await v2(env, "GET", `/v2/models/${modelId}`)).fields[1].type).toBe("string");

    await page.getByRole("button", { name: "Details of change 1" }).click();
    const dialog = page.getByRole("dialog", { name: "Change 1" });
    await dialog.getByRole("heading", { name: "2 values failed to convert" }).waitFor();
    const failures = dialog.getByRole("table", { name: "Values that failed to convert" });
    await failures.getByRole("link", { name: "Beta" }).waitFor();
    await failures.getByRole("link", { name: "Gamma" }).waitFor();
    const rows = await failures.getByRole("row").all();
    const texts = await Promise.all(rows.slice(1).map((r) => r.getByRole("cell").allTextContents()));
    const heads = await Promise.all(rows.slice(1).map((r) => r.getByRole("rowheader").textContent()));
    // The server lists failures by entry id; compare as a set of whole rows.
    expect(heads.map((h, i) => [h, ...texts[i]!]).sort()).toEqual([
      ["Beta", "size", "Draft", '"big"', '"big" is not a number'],
      ["Gamma", "size", "Draft", '"huge"', '"huge" is not a number'],
    ]);
    expect(await failures.getByRole("link", { name: "Beta" }).getAttribute("href")).toBe(`/admin/content/gadget/${ids.Beta}`);
    // The server's reason for stopping is shown as it says it.
    const stopped = (await v2(env, "GET", `/v2/field-changes/${changeId}`)).error;
    expect(stopped.code).toBe("conversion_failed");
    await dialog.getByText(stopped.message, { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "field-change-failures");

    // Beta is fixed; Resume converts it again, Gamma still fails and stops the change again.
    await v2(env, "PATCH", `/v2/model-instances/${ids.Beta}`, { data: { size: "3" } });
    await dialog.getByRole("button", { name: "Resume", exact: true }).click();
    await progress.getByText("Queued.", { exact: true }).waitFor();
    await runUntil(changeId, "failed");
    await progress.getByText("Failed: 3 of 3 entries converted, 1 values failed.").waitFor();
    await first.getByRole("cell", { name: "1", exact: true }).waitFor();

    await page.getByRole("button", { name: "Details of change 1" }).click();
    await dialog.getByRole("heading", { name: "1 value failed to convert" }).waitFor();
    expect(await dialog.getByRole("table", { name: "Values that failed to convert" }).getByRole("link").allTextContents()).toEqual(["Gamma"]);
    await dialog.getByRole("button", { name: "Resume and clear values that fail" }).click();
    await progress.getByText("Queued.", { exact: true }).waitFor();
    await runUntil(changeId, "done");
    await progress.getByText("Done: 3 of 3 entries converted, 1 values failed.").waitFor();
    await first.getByRole("cell", { name: "Done", exact: true }).waitFor();
    expect(await first.getByRole("button", { name: "Resume change 1" }).count()).toBe(0);
    await row(page, "size").getByRole("cell", { name: "Number", exact: true }).waitFor();

    const after = await v2(env, "GET", "/v2/model-instances?model=gadget");
    const sizes = Object.fromEntries(after.data.map((e: { draft: { data: { title: string; size: unknown } } }) => [e.draft.data.title, e.draft.data.size]));
    expect(sizes).toEqual({ Alpha: 12, Beta: 3, Gamma: null });
    const done = await v2(env, "GET", `/v2/field-changes/${changeId}`);
    expect(done.failures.data.map((f: { entryId: string; value: unknown }) => [f.entryId, f.value])).toEqual([[ids.Gamma, "huge"]]);
    await expectAccessible(page);
  }, 120_000);

  test("a change cancelled before it moves is resumed from the change history and ends done", async () => {
    await v2(env, "POST", "/v2/models", {
      name: "Widget",
      namespace: "widget",
      fields: [
        { namespace: "title", type: "string" },
        { namespace: "count", type: "string" },
      ],
    });
    await v2(env, "POST", "/v2/model-instances", { model: "widget", data: { title: "One", count: "5" } });
    const page = await env.page();
    const modelId = await openModel(page, "Widget");
    await toNumber(page, "count", "Empty it and list it");
    const progress = page.getByRole("region", { name: "Field change", exact: true });
    await progress.getByText("Queued.", { exact: true }).waitFor();
    // A reload finds the change in progress (GET .../field-changes/current) and follows it again.
    await page.reload();
    await progress.getByText("Queued.", { exact: true }).waitFor();
    await progress.getByRole("button", { name: "Cancel change" }).click();
    await progress.getByText("Cancelled.", { exact: true }).waitFor();
    const first = row(page, "Change 1");
    await first.getByRole("cell", { name: "Cancelled", exact: true }).waitFor();
    expect((await first.getByRole("cell").allTextContents()).filter((_, i) => i !== 2)).toEqual([
      "count: Text → Number",
      "Cancelled",
      "—",
      "0",
      "DetailsResume",
    ]);
    await expectAccessible(page);

    // From the keyboard: focus Resume and press Enter.
    await page.getByRole("button", { name: "Resume change 1" }).focus();
    await page.keyboard.press("Enter");
    await progress.getByText("Queued.", { exact: true }).waitFor();
    const [change] = (await v2(env, "GET", `/v2/models/${modelId}/field-changes`)).data;
    expect(change.state).toBe("queued");
    await runUntil(change.id, "done");
    await progress.getByText("Done: 1 of 1 entries converted.").waitFor();
    await first.getByRole("cell", { name: "Done", exact: true }).waitFor();
    const [entry] = (await v2(env, "GET", "/v2/model-instances?model=widget")).data;
    expect(entry.draft.data).toEqual({ title: "One", count: 5 });
  }, 90_000);

  test("at 360 px wide in dark mode the model screen, its history and a change's failures still read", async () => {
    const page = await env.page({ width: 360, height: 740, colorScheme: "dark" });
    const id = (await v2(env, "GET", "/v2/models")).data.find((m: { name: string }) => m.name === "Gadget").id;
    await signIn(page, env.origin, `/admin/models/${id}`);
    await row(page, "Change 1").waitFor();
    await expectAccessible(page);
    await screenshot(page, "field-change-history-360-dark");
    await page.getByRole("button", { name: "Details of change 1" }).click();
    await page.getByRole("dialog", { name: "Change 1" }).getByRole("link", { name: "Gamma" }).waitFor();
    await expectAccessible(page);
  }, 60_000);
});
