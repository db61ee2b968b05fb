// The webhooks screens in a real browser, against a real local HTTPS receiver (the test CA of
// test/webhooks/receiver.ts, private targets allowed): a refused URL shown at its field, create
// with events and the content option, the signing secret shown once and checked against what
// the receiver gets, Send test, the deliveries log with each attempt's status, duration and
// answer excerpt, Redeliver, Edit, Rotate secret, turning off, Delete.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
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

/** Runs the sender once (the server's background jobs are not started in tests). */
const deliver = () => env.capa.services.webhooks.runDue(Date.now());

describe("webhooks", () => {
  test("create, secret once, send test, attempts, redeliver, edit, rotate, turn off, delete", async () => {
    const page = await env.page();
    await signIn(page, env.origin);
    await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
    await page.getByText("No webhooks yet.", { exact: false }).waitFor();

    await page.getByRole("button", { name: "New webhook" }).click();
    await page.getByLabel("URL").fill("http://example.com/hook");
    await page.getByRole("button", { name: "Create webhook" }).click();
    const urlError = page.locator("#hook-url-error");
    await urlError.waitFor();
    expect(await urlError.textContent()).toContain("https");
    expect(await page.getByLabel("URL").getAttribute("aria-invalid")).toBe("true");

    const url = receiver.url("/hook");
    await page.getByLabel("URL").fill(url);
    await page.getByLabel("Description").fill("Site rebuild");
    await page.getByLabel("Entry deleted").uncheck();
    await page.getByLabel("Model published").check();
    await page.getByLabel("Include content data").check();
    await expectAccessible(page);
    await screenshot(page, "webhooks-new");
    await page.getByRole("button", { name: "Create webhook" }).click();
    await page.getByRole("heading", { name: "Webhook created" }).waitFor();
    const secret = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Done" }).click();
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: url }) });
    await row.waitFor();
    expect(await row.getByRole("cell").allTextContents()).toEqual(["Entry published, Entry unpublished, Model published", "Included", "On"]);
    await expectAccessible(page);
    await screenshot(page, "webhooks-list");

    await page.getByRole("link", { name: url }).click();
    await page.getByRole("heading", { name: url, level: 1 }).waitFor();
    await page.getByText("No deliveries yet.", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Send test" }).click();
    await page.getByText("Test delivery queued.").waitFor();
    await page.getByRole("listitem", { name: "Test delivery, Pending" }).waitFor();
    await deliver();
    // The log refreshes itself while a delivery is open.
    const done = page.getByRole("listitem", { name: "Test delivery, Succeeded" });
    await done.waitFor();
    expect(receiver.on("/hook")).toHaveLength(1);
    // The secret shown once is the one that signs.
    const got = receiver.on("/hook")[0]!;
    expect((new Webhook(secret).verify(got.body, got.headers) as { type: string }).type).toBe("webhook.test");

    await done.getByRole("button", { name: "Attempts" }).click();
    expect(await done.getByRole("button", { name: "Attempts" }).getAttribute("aria-expanded")).toBe("true");
    const cells = await done.getByRole("row").nth(1).getByRole("cell").allTextContents();
    expect(cells[0]).toBe("1");
    expect(cells[2]).toBe("HTTP 200");
    expect(cells[3]).toMatch(/^\d+ ms$/);
    expect(cells[4]).toBe("ok 1");
    await expectAccessible(page);
    await screenshot(page, "webhook-deliveries");

    // A receiver that says no: the redelivery's attempt shows the status and the answer.
    receiver.behaviour = 500;
    await done.getByRole("button", { name: "Redeliver" }).click();
    await page.getByRole("listitem", { name: "Test delivery, Pending" }).waitFor();
    await deliver();
    const retrying = page.getByRole("listitem", { name: "Test delivery, Retrying" });
    await retrying.waitFor();
    await retrying.getByRole("button", { name: "Attempts" }).click();
    const failed = await retrying.getByRole("row").nth(1).getByRole("cell").allTextContents();
    expect([failed[0], failed[2], failed[4]]).toEqual(["1", "HTTP 500", "receiver says no"]);
    expect(receiver.on("/hook")).toHaveLength(2);
    receiver.behaviour = 200;

    // Edit: the description and the events change; the content option is switched off.
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    const form = page.getByRole("form", { name: "Edit webhook" });
    expect(await form.getByLabel("Description").inputValue()).toBe("Site rebuild");
    await form.getByLabel("Description").fill("Rebuild the site");
    await form.getByLabel("Entry unpublished").uncheck();
    await form.getByLabel("Include content data").uncheck();
    await form.getByRole("button", { name: "Save webhook" }).click();
    await page.getByText("Webhook saved.").waitFor();
    const saved = (await v2(env, "GET", "/v2/webhooks")).data[0];
    expect([saved.description, saved.events, saved.includeContent]).toEqual(["Rebuild the site", ["instance.published", "model.published"], false]);

    await page.getByRole("button", { name: "Rotate secret" }).click();
    const dialog = page.getByRole("dialog", { name: "Rotate the signing secret?" });
    await dialog.getByLabel("Grace period (hours)").fill("1");
    await dialog.getByRole("button", { name: "Rotate" }).click();
    await page.getByRole("heading", { name: "New signing secret" }).waitFor();
    const next = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    await page.getByText(/the previous secret works until/).waitFor();
    await page.getByRole("button", { name: "Done" }).click();

    await page.getByRole("button", { name: "Turn off" }).click();
    await page.getByText("The webhook is off: no deliveries are sent.").waitFor();
    expect(await page.getByRole("button", { name: "Send test" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByText("The webhook is on.").waitFor();

    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete this webhook?" }).getByRole("button", { name: "Delete" }).click();
    await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
    await page.getByText("No webhooks yet.", { exact: false }).waitFor();
  }, 120_000);
});
