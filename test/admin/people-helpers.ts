// Members for the admin browser tests: invited and accepted over /v2 as a script would, then
// signed in through the sign-in screen as a person does.
import type { Page } from "playwright-core";
import { signedIn, v2, type BrowserEnv } from "./browser.ts";

/** Invites `email` with `role` into the demo project and accepts with `password`; answers nothing. */
export async function addMember(env: BrowserEnv, email: string, role: string, password: string): Promise<void> {
  const { invitation } = await v2(env, "POST", `/v2/projects/${env.demoProjectId}/members`, { email, role });
  const res = await fetch(`${env.origin}/v2/invitations/accept`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: invitation.token, password }),
  });
  if (res.status !== 201) throw new Error(`accept: ${res.status} ${await res.text()}`);
}

/** Signs in on the sign-in screen of `path` as someone other than the owner. */
export async function signInAs(page: Page, origin: string, email: string, password: string, path = "/admin/"): Promise<void> {
  await page.goto(origin + path);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await signedIn(page);
}
