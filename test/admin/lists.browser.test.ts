// Entry lists (issue 27 item 2) in a real browser at 1280x800 and 390x844: columns chosen from the
// model's fields, sort by a header, filters by field with operators that fit the kind, search as
// one types (one request after the pause), Shift-click ranges, "select all N that match", bulk
// publish, unpublish, schedule, trash and export (CSV and JSON) of the selection, keyset pages with
// the count and a page size, the state in the URL, a column for a field that is gone; a bulk
// action over more than 50 entries followed while it runs in the background. Found by
// role, label and text; axe on the list at both widths.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { runBulkBatches } from "../../src/domain/bulk/runner.ts";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";

let env: BrowserEnv;
const pad = (i: number) => String(i).padStart(2, "0");
beforeAll(async () => {
  env = await startBrowserEnv();
  await v2(env, "POST", "/v2/models", {
    name: "Product",
    namespace: "product",
    fields: [
      { namespace: "name", label: "Name", type: "string", required: true },
      { namespace: "price", label: "Price", type: "number" },
      { namespace: "inStock", label: "In stock", type: "true_false" },
      { namespace: "shelf", label: "Shelf", type: "enum", options: { values: ["tools", "toys", "books"] } },
    ],
  });
  // 72 products: Product 01 costs 1, ..., Product 72 costs 72; even ones are in stock.
  // One sign-in for all of them (v2() signs in for each call).
  const headers = { authorization: `Bearer ${await env.token()}`, "x-svc-project": env.demoProjectId, "content-type": "application/json" };
  for (let i = 1; i <= 72; i++) {
    const data = { name: `Product ${pad(i)}`, price: i, inStock: i % 2 === 0, shelf: ["tools", "toys", "books"][i % 3] };
    const res = await fetch(`${env.origin}/v2/model-instances`, { method: "POST", headers, body: JSON.stringify({ model: "product", data }) });
    expect(res.status).toBe(201);
  }
}, 120_000);
afterAll(async () => {
  await env?.close();
});

const rows = (page: Page) => page.getByRole("table").getByRole("row");
/** The titles of the rows shown, in order. */
const titles = async (page: Page) => (await page.getByRole("table").getByRole("rowgroup").nth(1).getByRole("link").allTextContents()) as string[];
const search = (page: Page) => new URL(page.url()).searchParams;
const count = async (q: string) => (await v2(env, "GET", `/v2/model-instances?model=product&limit=1&${q}`)).total as number;

async function openProducts(page: Page, query = "") {
  await signIn(page, env.origin, `/admin/content/product${query}`);
  await page.getByRole("heading", { name: "Product", level: 1 }).waitFor();
}

describe("the entry list at 1280x800", () => {
  test("columns from fields, sort by a header, filters by kind, search as one types, pages with a size, all in the URL", async () => {
    const page = await env.page();
    await openProducts(page);
    await page.getByText("Entries 1–25 of 72").waitFor();
    // System columns say what they are.
    expect(await page.getByRole("columnheader").allTextContents()).toEqual(["", "Name", "Status", "Updated", "Last edited by"]);

    // Columns from the model's fields, each shown by its kind.
    await page.getByRole("button", { name: "Columns" }).click();
    const choices = page.getByRole("group", { name: "Columns to show" });
    await choices.getByLabel("Price").check();
    await choices.getByLabel("In stock").check();
    await choices.getByLabel("Last edited by").uncheck();
    await choices.getByRole("button", { name: "Done" }).click();
    await page.waitForURL(/columns=/);
    expect(search(page).get("columns")).toBe("price,inStock,$status,$updatedAt");
    expect(await page.getByRole("columnheader").allTextContents()).toEqual(["", "Name", "Price", "In stock", "Status", "Updated"]);

    // Sort by a field's header: ascending, then descending; aria-sort says which.
    await page.getByRole("button", { name: "Price", exact: true }).click();
    await page.waitForURL(/sort=price/);
    await rows(page).nth(1).getByRole("link", { name: "Product 01" }).waitFor();
    expect(await page.getByRole("columnheader", { name: "Price" }).getAttribute("aria-sort")).toBe("ascending");
    await page.getByRole("button", { name: "Price", exact: true }).click();
    await page.waitForURL(/sort=-price/);
    await rows(page).nth(1).getByRole("link", { name: "Product 72" }).waitFor();
    expect(await page.getByRole("columnheader", { name: "Price" }).getAttribute("aria-sort")).toBe("descending");
    expect((await rows(page).nth(1).getByRole("cell").allTextContents()).slice(2, 4)).toEqual(["72", "Yes"]);

    // Keyset pages with the count, and a page size.
    await page.getByRole("button", { name: "Next page" }).click();
    await page.getByText("Entries 26–50 of 72").waitFor();
    expect((await titles(page))[0]).toBe("Product 47");
    expect(search(page).get("page")).toBe("2");
    expect(search(page).get("after")).toBeTruthy();
    await page.getByLabel("Per page").selectOption("50");
    await page.getByText("Entries 1–50 of 72").waitFor();
    expect(search(page).get("limit")).toBe("50");
    expect(search(page).get("page")).toBeNull();

    // A filter by a number field, with the number operators in words.
    await page.getByRole("button", { name: "Add filter" }).click();
    const form = page.getByRole("form", { name: "New filter" });
    await form.getByLabel("Filter by").selectOption({ label: "Price" });
    expect(await form.getByLabel("Operator").getByRole("option").allTextContents()).toContain("is at least");
    await form.getByLabel("Operator").selectOption({ label: "is at least" });
    await form.getByLabel("Value").fill("60");
    await form.getByRole("button", { name: "Apply filter" }).click();
    await page.getByText("Entries 1–13 of 13").waitFor();
    expect(JSON.parse(search(page).get("where")!)).toEqual({ price: { gte: 60 } });
    await page.getByRole("button", { name: "Remove filter: Price is at least 60" }).waitFor();
    // A yes-or-no field offers Yes and No.
    await page.getByRole("button", { name: "Add filter" }).click();
    await form.getByLabel("Filter by").selectOption({ label: "In stock" });
    await form.getByLabel("Value").selectOption({ label: "Yes" });
    await form.getByRole("button", { name: "Apply filter" }).click();
    await page.getByText("Entries 1–7 of 7").waitFor();
    expect(await titles(page)).toEqual(["Product 72", "Product 70", "Product 68", "Product 66", "Product 64", "Product 62", "Product 60"]);
    // A choice field offers its values.
    await page.getByRole("button", { name: "Remove filter: In stock is yes" }).click();
    await page.getByText("Entries 1–13 of 13").waitFor();
    await page.getByRole("button", { name: "Add filter" }).click();
    await form.getByLabel("Filter by").selectOption({ label: "Shelf" });
    expect(await form.getByLabel("Value").getByRole("option").allTextContents()).toEqual(["Choose…", "tools", "toys", "books"]);
    await form.getByRole("button", { name: "Cancel" }).click();
    // A value that is not a number is said at the input, and nothing is asked.
    await page.getByRole("button", { name: "Add filter" }).click();
    await form.getByLabel("Filter by").selectOption({ label: "Price" });
    await form.getByRole("button", { name: "Apply filter" }).click();
    await form.getByText("Type a value to filter by.").waitFor();
    await form.getByRole("button", { name: "Cancel" }).click();
    await expectAccessible(page);
    await screenshot(page, "list-filtered");

    // The state is in the URL: a reload (or a link) shows the same list.
    const linked = page.url();
    await page.reload();
    await page.getByText("Entries 1–13 of 13").waitFor();
    expect(page.url()).toBe(linked);
    // The arrow beside a sorted header is for the eye; aria-sort says it to a screen reader.
    expect(await page.getByRole("columnheader").allTextContents()).toEqual(["", "Name", "Price ↓", "In stock", "Status", "Updated"]);
    await page.getByRole("button", { name: "Remove filter: Price is at least 60" }).click();
    await page.getByText("Entries 1–50 of 72").waitFor();

    // Search as one types: one request, after typing pauses.
    const asked: string[] = [];
    page.on("request", (r) => {
      const u = new URL(r.url());
      if (u.pathname === "/v2/model-instances" && u.searchParams.has("q")) asked.push(u.searchParams.get("q")!);
    });
    await page.getByLabel("Search").pressSequentially("Product 7", { delay: 40 });
    await page.getByText("Entries 1–3 of 3").waitFor();
    expect(asked).toEqual(["Product 7"]);
    expect(await titles(page)).toEqual(["Product 72", "Product 71", "Product 70"]);
    expect(search(page).get("q")).toBe("Product 7");
    await page.getByLabel("Search").fill("");
    await page.getByText("Entries 1–50 of 72").waitFor();
  }, 120_000);

  test("Shift-click ranges; select all that match; publish, unpublish, schedule, trash and export the selection", async () => {
    const page = await env.page();
    await openProducts(page, "?sort=price");
    await page.getByText("Entries 1–25 of 72").waitFor();
    // A range: tick 3, Shift-click 7.
    await page.getByRole("checkbox", { name: "Select Product 03" }).check();
    await page.getByRole("checkbox", { name: "Select Product 07" }).click({ modifiers: ["Shift"] });
    const bar = page.getByRole("region", { name: "Selection" });
    await bar.getByText("5 entries selected").waitFor();
    for (const i of [3, 4, 5, 6, 7]) expect(await page.getByRole("checkbox", { name: `Select Product 0${i}` }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: "Select Product 08" }).isChecked()).toBe(false);

    // The keyboard: j moves to the first entry, x ticks it (the `?` list says so).
    await page.getByRole("heading", { name: "Product", level: 1 }).click();
    await page.keyboard.press("j");
    await page.keyboard.press("x");
    await bar.getByText("6 entries selected").waitFor();
    expect(await page.getByRole("checkbox", { name: "Select Product 01" }).isChecked()).toBe(true);
    await page.keyboard.press("x");
    await bar.getByText("5 entries selected").waitFor();

    // Publish the five: a dry run's count in the confirmation, then done.
    await bar.getByRole("button", { name: "Publish", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Publish 5 entries?" });
    await confirm.getByRole("button", { name: "Publish 5 entries" }).click();
    await page.getByText("Published 5 entries.").waitFor();
    expect(await count("status=published")).toBe(5);

    // Unpublish two of them.
    await page.getByRole("checkbox", { name: "Select Product 03" }).check();
    await page.getByRole("checkbox", { name: "Select Product 04" }).check();
    await bar.getByRole("button", { name: "Unpublish" }).click();
    await page.getByRole("dialog", { name: "Unpublish 2 entries?" }).getByRole("button", { name: "Unpublish 2 entries" }).click();
    await page.getByText("Unpublished 2 entries.").waitFor();
    expect(await count("status=published")).toBe(3);

    // Every entry that matches a filter, not just the page: price at least 20 is 53 entries.
    await page.goto(`${env.origin}/admin/content/product?sort=price&where=${encodeURIComponent(JSON.stringify({ price: { gte: 20 } }))}`);
    await page.getByText("Entries 1–25 of 53").waitFor();
    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await page.getByText("All 25 entries on this page are selected.").waitFor();
    await page.getByRole("button", { name: "Select all 53 entries that match" }).click();
    await page.getByText("All 53 entries that match are selected.").waitFor();
    await bar.getByText("53 entries selected").waitFor();
    await expectAccessible(page);
    await screenshot(page, "list-select-all");

    // Export the 53 as CSV and as JSON: the columns shown, in the list's order.
    const [csvDownload] = await Promise.all([page.waitForEvent("download"), bar.getByRole("button", { name: "Export CSV" }).click()]);
    const csv = readFileSync((await csvDownload.path())!, "utf8");
    const lines = csv
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines.length).toBe(54);
    expect(lines[0]).toBe("Name,Status,Updated,Last edited by");
    expect(lines[1]!.startsWith("Product 20,draft,")).toBe(true);
    expect(lines[53]!.startsWith("Product 72,draft,")).toBe(true);
    await page.getByText("Exported 53 entries as CSV.").waitFor();
    expect(csvDownload.suggestedFilename()).toMatch(/^product-\d{4}-\d{2}-\d{2}\.csv$/);
    // The export cleared the selection; select all again for JSON.
    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await page.getByRole("button", { name: "Select all 53 entries that match" }).click();
    const [jsonDownload] = await Promise.all([page.waitForEvent("download"), bar.getByRole("button", { name: "Export JSON" }).click()]);
    const json = JSON.parse(readFileSync((await jsonDownload.path())!, "utf8")) as Record<string, unknown>[];
    expect(json.length).toBe(53);
    expect(Object.keys(json[0]!)).toEqual(["name", "$status", "$updatedAt", "$lastEditedBy"]);
    expect(json.map((r) => r.name)).toEqual(Array.from({ length: 53 }, (_, i) => `Product ${pad(i + 20)}`));

    // Schedule a publish of all 53 at one wall time.
    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await page.getByRole("button", { name: "Select all 53 entries that match" }).click();
    await bar.getByRole("button", { name: "Schedule" }).click();
    const schedule = page.getByRole("dialog", { name: "Schedule 53 entries" });
    await schedule.getByLabel("Time", { exact: true }).fill("2031-06-01T09:00");
    await schedule.getByLabel("Time zone").fill("Europe/Berlin");
    await schedule.getByRole("button", { name: "Schedule 53 entries" }).click();
    await page.getByText(/^Publish of 53 entries scheduled for /).waitFor();
    const pending = (await v2(env, "GET", "/v2/scheduled-actions?status=pending&limit=100")).data as { resolved: { at: string }; timezone: string }[];
    // One action per entry, all at the one instant 09:00 in Berlin resolves to.
    expect(pending.filter((a) => a.resolved.at === "2031-06-01T07:00:00.000Z" && a.timezone === "Europe/Berlin").length).toBe(53);

    // Publishing more than 50 runs as a batch in the background: the list says so, and it happens.
    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await page.getByRole("button", { name: "Select all 53 entries that match" }).click();
    await bar.getByRole("button", { name: "Publish", exact: true }).click();
    await page.getByRole("dialog", { name: "Publish 53 entries?" }).getByRole("button", { name: "Publish 53 entries" }).click();
    await page.getByText(/^(Publish of 53 entries started; it goes on in the background\.|Publishing 53 entries: 0 done so far\.)$/).waitFor();
    // The server's bulk-batches job, run here as its timer would (tests start no timers).
    runBulkBatches(env.capa.services, Date.now());
    await page.getByText("Published 53 entries.").waitFor();
    expect(await count("status=published")).toBe(56);
    await page.getByRole("table").getByRole("row").nth(1).getByRole("cell", { name: "Published" }).waitFor();

    // Move three to the trash.
    await page.getByRole("checkbox", { name: "Select Product 20" }).check();
    await page.getByRole("checkbox", { name: "Select Product 22" }).click({ modifiers: ["Shift"] });
    await bar.getByRole("button", { name: "Delete" }).click();
    const del = page.getByRole("dialog", { name: "Delete 3 entries?" });
    await del.getByText("3 entries move to the trash", { exact: false }).waitFor();
    await del.getByRole("button", { name: "Delete 3 entries" }).click();
    await page.getByText("Moved to the trash: 3 entries.").waitFor();
    await page.getByText("Entries 1–25 of 50").waitFor();
    expect(await count("")).toBe(69);
  }, 120_000);

  test("a column for a field the model no longer has is left out, and the list says so", async () => {
    const page = await env.page();
    await openProducts(page, "?columns=price,colour");
    await page.getByRole("status").getByText("No column “colour”: Product has no such field now (it was deleted or renamed), so it is left out.").waitFor();
    expect(await page.getByRole("columnheader").allTextContents()).toEqual(["", "Name", "Price"]);
    await expectAccessible(page);
  }, 60_000);
});

describe("the entry list at 390x844", () => {
  test("it reads, sorts, pages and selects at phone width", async () => {
    const page = await env.page({ width: 390, height: 844 });
    await openProducts(page, "?sort=-price&columns=price");
    await page.getByText(/^Entries 1–25 of \d+$/).waitFor();
    expect((await titles(page))[0]).toBe("Product 72");
    await expectAccessible(page);
    await screenshot(page, "list-390");
    await page.getByRole("button", { name: "Next page" }).click();
    await page.getByText(/^Entries 26–50 of \d+$/).waitFor();
    await page.getByRole("checkbox", { name: "Select Product 47" }).check();
    await page.getByRole("checkbox", { name: "Select Product 44" }).click({ modifiers: ["Shift"] });
    await page.getByRole("region", { name: "Selection" }).getByText("4 entries selected").waitFor();
    await expectAccessible(page);
    await screenshot(page, "list-selected-390");
  }, 60_000);
});
