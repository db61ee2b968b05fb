// Inviting on a server that sends mail, in a real browser (issue 24 item 4): the People screen says
// the invitation was mailed and shows no link or token; the link in the mail (received by a real
// SMTP server) opens the invitation page, where its holder chooses the password.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectAccessible, screenshot, signIn, startBrowserEnv, type BrowserEnv } from "./browser.ts";
import { linkIn, startSmtp, type SmtpServer } from "../mail/smtp.ts";

let smtp: SmtpServer;
let env: BrowserEnv;
beforeAll(async () => {
  smtp = await startSmtp();
  env = await startBrowserEnv({ mail: smtp.settings });
  // The links in mail start with the management host's URL; here that is the test server's origin.
  env.capa.services.config.apiUrl = env.origin;
}, 60_000);
afterAll(async () => {
  await env?.close();
  await smtp?.close();
});

describe("a mailed invitation", () => {
  test("the screen says it was mailed and shows no link; the mail's link lets its holder join", async () => {
    const page = await env.page();
    await signIn(page, env.origin, "/admin/people");
    await page.getByRole("heading", { name: "People", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Invite" }).click();
    await page.getByLabel("Email").fill("mailed@capa.local");
    await page.getByLabel("Role", { exact: true }).selectOption({ label: "Editor" });
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page.getByText("Invitation mailed to mailed@capa.local. Its link works once, for 7 days.").waitFor();
    expect(await page.getByRole("textbox", { name: "Invitation link" }).count()).toBe(0);
    expect(await page.content()).not.toContain("inv_");
    const pending = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "mailed@capa.local" }) });
    await pending.waitFor();
    await expectAccessible(page);
    await screenshot(page, "people-invitation-mailed");

    const mail = await smtp.next();
    expect([mail.to, mail.subject]).toEqual([["mailed@capa.local"], "You are invited to Demo on Capa"]);
    const { link } = linkIn(mail, "/admin/invite");
    const invitee = await env.page();
    await invitee.goto(link);
    await invitee.getByRole("heading", { name: "Join a project on Capa" }).waitFor();
    await invitee.getByLabel("New password").fill("mailed-password-1");
    await invitee.getByRole("button", { name: "Accept and sign in" }).click();
    await invitee.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
  }, 90_000);
});
