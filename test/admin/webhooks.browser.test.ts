// The webhooks screens in a real browser, against a real local HTTPS receiver (the test CA of
// test/webhooks/receiver.ts, private targets allowed): a refused URL shown at its field, create
// with events and the content option, the signing secret shown once and checked against what
// the receiver gets, Send test, the deliveries log with each delivery's request (URL, body, headers
// with the signature masked) and each attempt's status, duration, headers and answer, Redeliver
// (also while a delivery retries), Edit, Rotate secret, turning off, Delete. A refused http:// or
// private URL says at its field how to allow a local receiver.
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
    // Refused URLs say, at the field, how to allow a local receiver.
    await page.getByLabel("URL").fill("http://localhost:4000/hook");
    await page.getByRole("button", { name: "Create webhook" }).click();
    const https =
      "url must use https: Capa sends events over TLS only. For a local receiver, serve it over https (trust its certificate with CAPA_WEBHOOK_CA_FILE) and start Capa with CAPA_WEBHOOK_ALLOW_PRIVATE=1.";
    await page.getByText(https).waitFor();
    expect(await page.getByLabel("URL").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("URL").evaluate((el) => document.getElementById(el.getAttribute("aria-describedby") ?? "")?.textContent)).toBe(https);
    const url = receiver.url("/hook");
    // This server allows private receivers; one that does not refuses the local https receiver, saying how.
    env.capa.services.config.webhookAllowPrivate = false;
    try {
      await page.getByLabel("URL").fill(url);
      await page.getByRole("button", { name: "Create webhook" }).click();
      await page
        .getByText(
          /^The URL is refused: .+\. To send to a receiver on this machine or a private network, start Capa with CAPA_WEBHOOK_ALLOW_PRIVATE=1 \(the URL must still be https\)\.$/,
        )
        .waitFor();
      expect(await page.getByLabel("URL").getAttribute("aria-invalid")).toBe("true");
      await expectAccessible(page);
      await screenshot(page, "webhooks-local-refused");
    } finally {
      env.capa.services.config.webhookAllowPrivate = true;
    }

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

    expect(await page.title()).toBe("Webhooks · Demo · Capa");
    await page.getByRole("link", { name: url }).click();
    await page.getByRole("heading", { name: url, level: 1 }).waitFor();
    expect(await page.title()).toBe(`${url} · Webhooks · Demo · Capa`);
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

    await done.getByRole("button", { name: "Details" }).click();
    expect(await done.getByRole("button", { name: "Details" }).getAttribute("aria-expanded")).toBe("true");
    const attempts = done.getByRole("table", { name: "Attempts of this delivery" });
    await attempts.waitFor();
    const cells = await attempts.getByRole("row").nth(1).getByRole("cell").allTextContents();
    expect(cells[0]).toBe("1");
    expect(cells[2]).toBe("HTTP 200");
    expect(cells[3]).toMatch(/^\d+ ms$/);
    expect(cells[4]).toBe("ok 1");
    // The request: the URL, the exact body the receiver got, the headers with the signature masked.
    await done.getByText(`POST ${url}`, { exact: true }).waitFor();
    const sentBody = await done.getByRole("figure", { name: "Body sent" }).getByText(/^\{/).textContent();
    expect(JSON.parse(sentBody!)).toEqual(JSON.parse(got.body));
    const header = async (table: string, name: string) =>
      done
        .getByRole("table", { name: table })
        .getByRole("row")
        .filter({ has: page.getByRole("rowheader", { name, exact: true }) })
        .getByRole("cell")
        .textContent();
    expect(await header("Headers sent with attempt 1", "webhook-signature")).toBe("v1,****");
    expect(await header("Headers sent with attempt 1", "webhook-id")).toBe(got.headers["webhook-id"]!);
    expect(await header("Headers sent with attempt 1", "content-type")).toBe("application/json");
    expect(await header("Answer headers of attempt 1", "content-type")).toStartWith("text/plain");
    await expect(done.getByRole("figure", { name: "Answer body of attempt 1" }).getByText("ok 1").textContent()).resolves.toBe("ok 1");
    // Neither the signing secret nor a real signature reaches the page.
    const html = await page.content();
    expect(html).not.toContain(secret);
    expect(html).not.toContain(got.headers["webhook-signature"]!);
    await expectAccessible(page);
    await screenshot(page, "webhook-deliveries");

    // A receiver that says no: the redelivery's attempt shows the status and the answer.
    receiver.behaviour = 500;
    await done.getByRole("button", { name: "Redeliver" }).click();
    await page.getByRole("listitem", { name: "Test delivery, Pending" }).waitFor();
    await deliver();
    const retrying = page.getByRole("listitem", { name: "Test delivery, Retrying" });
    await retrying.waitFor();
    await retrying.getByRole("button", { name: "Details" }).click();
    const firstTry = retrying.getByRole("table", { name: "Attempts of this delivery" }).getByRole("row").nth(1);
    await firstTry.waitFor();
    const failed = await firstTry.getByRole("cell").allTextContents();
    expect([failed[0], failed[2], failed[4]]).toEqual(["1", "HTTP 500", "receiver says no"]);
    await retrying.getByText(/^1 attempt, last HTTP 500, next try /).waitFor();
    await retrying.getByText("Sent again from an earlier delivery of the same event.").waitFor();
    expect(receiver.on("/hook")).toHaveLength(2);

    // Redeliver while it retries: its retries stop, and a new delivery of the same event goes out.
    receiver.behaviour = 200;
    await retrying.getByRole("button", { name: "Redeliver" }).click();
    const stopped = page.getByRole("listitem", { name: "Test delivery, Failed" });
    await stopped.getByText(/^Retries stopped: sent again as delivery [0-9a-f-]{36}\.$/).waitFor();
    await page.getByRole("listitem", { name: "Test delivery, Pending" }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "webhook-redeliver-retrying");
    await deliver();
    await page.getByRole("listitem", { name: "Test delivery, Succeeded" }).nth(1).waitFor();
    const sent = receiver.on("/hook");
    expect(sent).toHaveLength(3);
    // The same event each time: one webhook-id, so the receiver can tell a repeat.
    expect(new Set(sent.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(sent[2]!.body).toBe(sent[1]!.body);

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
    // The endpoint is asked for again after the change; its new state turns the buttons.
    await page.getByRole("button", { name: "Turn on" }).waitFor();
    expect(await page.getByRole("button", { name: "Send test" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByText("The webhook is on.").waitFor();

    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete this webhook?" }).getByRole("button", { name: "Delete" }).click();
    await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
    await page.getByText("No webhooks yet.", { exact: false }).waitFor();
  }, 120_000);
});

describe("webhooks at 390x844", () => {
  test("a delivery's request and answer read at phone width, and Redeliver sends it again while it retries", async () => {
    const url = receiver.url("/phone");
    const hook = await v2(env, "POST", "/v2/webhooks", { url, events: ["instance.published"] });
    receiver.byPath.set("/phone", 503);
    await v2(env, "POST", `/v2/webhooks/${hook.id}/test`, {});
    await deliver();
    const page = await env.page({ width: 390, height: 844 });
    await signIn(page, env.origin, `/admin/webhooks/${hook.id}`);
    const retrying = page.getByRole("listitem", { name: "Test delivery, Retrying" });
    await retrying.getByRole("button", { name: "Details" }).click();
    await retrying.getByRole("figure", { name: "Answer body of attempt 1" }).getByText("receiver says no").waitFor();
    await retrying.getByText(`POST ${url}`, { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "webhook-delivery-390");
    receiver.byPath.set("/phone", 200);
    await retrying.getByRole("button", { name: "Redeliver" }).click();
    await page.getByRole("listitem", { name: "Test delivery, Failed" }).waitFor();
    await deliver();
    await page.getByRole("listitem", { name: "Test delivery, Succeeded" }).waitFor();
    const got = receiver.on("/phone");
    expect(got.map((r) => r.headers["webhook-id"])).toEqual([got[0]!.headers["webhook-id"], got[0]!.headers["webhook-id"]]);
  }, 90_000);
});
