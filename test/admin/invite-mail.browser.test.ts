// Inviting on a server that sends mail, in a real browser (issue 24 item 4, issue 27 item 6): the
// People screen says the invitation was mailed and shows no link or token; the link in the mail
// (received by a real SMTP server) opens the invitation page, where its holder chooses the
// password. A pending invitation offers Resend (a new mail; the earlier link stops working) and
// Revoke, at 1280x800 and at 390x844.
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
    await page.getByText("Capa mails them a link to join; it works once, for 7 days.").waitFor();
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

/** Accepts an invitation token as a new account, as the invitation page does; answers the status. */
async function accept(token: string): Promise<number> {
  const res = await fetch(`${env.origin}/v2/invitations/accept`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, password: "resent-password-1" }),
  });
  await res.arrayBuffer();
  return res.status;
}

for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  describe(`a pending mailed invitation at ${width}x${height}`, () => {
    test("Resend mails a new link and the earlier one stops working; Revoke ends it", async () => {
      const email = `again-${width}@capa.local`;
      const page = await env.page({ width, height });
      await signIn(page, env.origin, "/admin/people");
      await page.getByRole("button", { name: "Invite" }).click();
      await page.getByLabel("Email").fill(email);
      smtp.clear();
      await page.getByRole("button", { name: "Send invitation" }).click();
      await page.getByText(`Invitation mailed to ${email}. Its link works once, for 7 days.`).waitFor();
      const first = linkIn(await smtp.next(), "/admin/invite").token;

      const pending = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: email }) });
      await pending.waitFor();
      // With mail there is no link to copy: the invitation is mailed again instead.
      expect(await pending.getByRole("button").allTextContents()).toEqual(["Resend", "Revoke"]);
      await pending.getByRole("button", { name: `Resend the invitation of ${email}` }).click();
      await page.getByText(`Invitation mailed again to ${email}. The earlier link no longer works; the new one works once, for 7 days.`).waitFor();
      const mail = await smtp.next();
      expect([mail.to, mail.subject]).toEqual([[email], "You are invited to Demo on Capa"]);
      const second = linkIn(mail, "/admin/invite").token;
      expect(second).not.toBe(first);
      expect(await page.getByRole("textbox", { name: "Invitation link" }).count()).toBe(0);
      expect(await page.content()).not.toContain("inv_");
      await expectAccessible(page);
      await screenshot(page, `people-resent-${width}`);
      expect(await accept(first)).toBe(404);

      await pending.getByRole("button", { name: `Revoke the invitation of ${email}` }).click();
      await page.getByText(`The invitation of ${email} is revoked: its link no longer works.`).waitFor();
      await pending.waitFor({ state: "detached" });
      expect(await accept(second)).toBe(404);
    }, 90_000);
  });
}
