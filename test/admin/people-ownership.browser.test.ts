// The People screen's invitations and ownership in a real browser (issue 27 item 6), on a server
// without mail: `Copy link` gives a fresh link to copy and the earlier one stops working; the only
// owner's row offers no role change and no Remove but `Transfer ownership`; the only owner who
// tries to leave is told the way out; after a transfer the former owner is an admin and may leave,
// and the app opens their other project; an expired invitation says so and gets a fresh link.
// At 1280x800 and at 390x844, with axe on each state.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { expectAccessible, screenshot, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";
import { addMember } from "./people-helpers.ts";
import { ManualClock } from "../../src/infra/clock.ts";

// The server's clock is moved by hand to let an invitation expire without waiting a week.
const clock = new ManualClock(Date.now());
let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv({}, { clock });
}, 60_000);
afterAll(async () => {
  await env?.close();
});

/** Accepts an invitation token as a new account, as the invitation page does; answers the status. */
async function accept(token: string, password: string): Promise<number> {
  const res = await fetch(`${env.origin}/v2/invitations/accept`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, password }),
  });
  await res.arrayBuffer();
  return res.status;
}

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

/** The row whose header starts with `header` (a member's name follows their e-mail). */
function row(page: Page, header: string) {
  return page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: header }) });
}

async function roles(): Promise<string[]> {
  const members = (await v2(env, "GET", `/v2/projects/${env.demoProjectId}/members`)).data as { email: string; role: string }[];
  return members.map((m) => `${m.email} ${m.role}`).sort();
}

for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  describe(`invitations without mail at ${width}x${height}`, () => {
    test("Copy link gives a fresh link to copy, the earlier link stops working, Revoke ends it", async () => {
      const email = `fresh-${width}@capa.local`;
      const page = await env.page({ width, height });
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.origin });
      await signIn(page, env.origin, "/admin/people");
      await page.getByRole("heading", { name: "People", level: 1 }).waitFor();
      expect(await page.title()).toBe("People · Demo · Capa");
      await page.getByRole("button", { name: "Invite" }).click();
      await page.getByText("This server sends no mail: you get a link to pass on yourself. It works once, for 7 days.").waitFor();
      await page.getByLabel("Email").fill(email);
      await page.getByRole("button", { name: "Send invitation" }).click();
      const first = await page.getByRole("textbox", { name: "Invitation link" }).inputValue();
      await page.getByRole("button", { name: "Done" }).click();

      const pending = row(page, email);
      await pending.waitFor();
      expect(await pending.getByRole("button").allTextContents()).toEqual(["Copy link", "Revoke"]);
      await pending.getByRole("button", { name: `Copy link for ${email}` }).click();
      await page.getByRole("heading", { name: `New link for ${email}` }).waitFor();
      await page.getByText(`The earlier link no longer works. Send this link to ${email}.`, { exact: false }).waitFor();
      const second = await page.getByRole("textbox", { name: "Invitation link" }).inputValue();
      expect(second).toMatch(new RegExp(`^${env.origin}/admin/invite\\?token=inv_`));
      expect(second).not.toBe(first);
      await page.getByRole("button", { name: "Copy", exact: true }).click();
      await page.getByText("Copied to the clipboard.").waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(second);
      await expectAccessible(page);
      await screenshot(page, `people-new-link-${width}`);

      // The first link no longer works; a third (copied again) replaces the second, which Revoke ends.
      expect(await accept(tokenOf(first), "fresh-password-1")).toBe(404);
      await page.getByRole("button", { name: "Done" }).click();
      await pending.getByRole("button", { name: `Copy link for ${email}` }).click();
      const third = await page.getByRole("textbox", { name: "Invitation link" }).inputValue();
      expect(await accept(tokenOf(second), "fresh-password-1")).toBe(404);
      await page.getByRole("button", { name: "Done" }).click();
      await pending.getByRole("button", { name: `Revoke the invitation of ${email}` }).click();
      await page.getByText(`The invitation of ${email} is revoked: its link no longer works.`).waitFor();
      await pending.waitFor({ state: "detached" });
      expect(await accept(tokenOf(third), "fresh-password-1")).toBe(404);
    }, 90_000);
  });
}

describe("an expired invitation", () => {
  test("says so, and Copy link gives it a fresh link that works for 7 days more", async () => {
    const { invitation } = await v2(env, "POST", `/v2/projects/${env.demoProjectId}/members`, { email: "late@capa.local", role: "viewer" });
    clock.advance(8 * 86_400_000);
    const page = await env.page();
    await signIn(page, env.origin, "/admin/people");
    const late = row(page, "late@capa.local");
    await late.getByText(/^Expired on /).waitFor();
    expect(await accept(invitation.token, "late-password-1")).toBe(404);
    await late.getByRole("button", { name: "Copy link for late@capa.local" }).click();
    const link = await page.getByRole("textbox", { name: "Invitation link" }).inputValue();
    await late.getByText(/^Works until /).waitFor();
    expect(await accept(tokenOf(link), "late-password-1")).toBe(201);
    expect(await roles()).toContain("late@capa.local viewer");
  }, 60_000);
});

describe("ownership", () => {
  test("the only owner cannot leave and is shown the way out; after Transfer ownership they are an admin and leave", async () => {
    await addMember(env, "heir@capa.local", "editor", "heir-password-1");
    // A second project of the owner's, which the app opens once they have left Demo.
    await v2(env, "POST", "/v2/projects", { name: "Side project", slug: "side-project" });
    await v2(env, "PUT", "/v2/projects/current", { projectId: env.demoProjectId });
    const page = await env.page();
    await signIn(page, env.origin, "/admin/people");
    const mine = row(page, "owner@capa.local (you)");
    await mine.waitFor();
    expect(await mine.getByRole("cell").allTextContents()).toEqual(["OwnerThe only owner", "Transfer ownership"]);
    expect(await page.getByLabel("Role of owner@capa.local").count()).toBe(0);
    expect(await row(page, "heir@capa.local").getByRole("button").allTextContents()).toEqual(["Remove"]);

    // Leaving as the only owner: the dialog says why not and how, and offers no Leave.
    await page.getByRole("button", { name: "Leave project" }).click();
    const refused = page.getByRole("dialog", { name: "You cannot leave Demo yet" });
    await refused
      .getByText(
        "You are the only owner of Demo, and a project needs at least one owner: make another member owner first (Transfer ownership), or delete the project in Settings.",
      )
      .waitFor();
    expect(await refused.getByRole("button").allTextContents()).toEqual(["Transfer ownership", "Cancel"]);
    await expectAccessible(page);
    await screenshot(page, "people-last-owner-leave");
    await refused.getByRole("button", { name: "Transfer ownership" }).click();

    const transfer = page.getByRole("dialog", { name: "Transfer ownership of Demo" });
    expect((await transfer.getByLabel("New owner").getByRole("option").allTextContents()).sort()).toEqual([
      "heir@capa.local (Editor)",
      "late@capa.local (Viewer)",
    ]);
    await transfer.getByLabel("New owner").selectOption({ label: "heir@capa.local (Editor)" });
    await transfer.getByText("heir@capa.local becomes the owner of Demo; you become an admin and keep working here.", { exact: false }).waitFor();
    await expectAccessible(page);
    await transfer.getByRole("button", { name: "Transfer ownership" }).click();
    await page.getByText("heir@capa.local is now the owner of Demo; you are an admin.").waitFor();
    expect(await roles()).toEqual(["heir@capa.local owner", "late@capa.local viewer", "owner@capa.local admin"]);
    // Now heir's row is the only owner's: no role change or Remove, and no Transfer for an admin.
    await row(page, "heir@capa.local").getByText("The only owner").waitFor();
    expect(await row(page, "heir@capa.local").getByRole("button").count()).toBe(0);
    expect(await page.getByLabel("Role of heir@capa.local").count()).toBe(0);
    expect(await page.getByLabel("Role of owner@capa.local").inputValue()).toBe("admin");

    await page.getByRole("button", { name: "Leave project" }).click();
    const leave = page.getByRole("dialog", { name: "Leave Demo?" });
    await leave.getByText("You lose access to Demo at once.", { exact: false }).waitFor();
    await leave.getByRole("button", { name: "Leave project" }).click();
    await page.getByRole("heading", { name: "Side project", level: 1 }).waitFor();
    expect(await page.getByLabel("Project", { exact: true }).getByRole("option").allTextContents()).toEqual(["Side project"]);
    const heir = await (
      await fetch(`${env.origin}/v2/user/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "heir@capa.local", password: "heir-password-1" }),
      })
    ).json();
    const left = await fetch(`${env.origin}/v2/projects/${env.demoProjectId}/members`, { headers: { authorization: `Bearer ${heir.accessToken}` } });
    expect(((await left.json()) as { data: { email: string }[] }).data.map((m) => m.email).sort()).toEqual(["heir@capa.local", "late@capa.local"]);
  }, 90_000);
});
