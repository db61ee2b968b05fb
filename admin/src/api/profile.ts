// The signed-in person's own account (docs/security.md, "Your own account"): their profile and
// their password. A password change ends every other session and answers a new one for this
// browser, which the session module takes over.
import type { PasswordBody, ProfileBody } from "../../../src/shared/bodies.ts";
import type { Me, Session } from "../../../src/shared/people.ts";
import { call } from "./client.ts";
import { adoptSession } from "./session.ts";

export type { Me } from "../../../src/shared/people.ts";

/** The query key of the person's profile (one per browser session, whatever the project). */
export const meKey = ["me"] as const;

/** One function per documented route. */
export const profileApi = {
  me: () => call<Me>("GET", "/v2/user/me"),
  update: (name: string | null) => call<Me>("PATCH", "/v2/user/me", { body: { name } satisfies ProfileBody }),
  /** Changes the password; the answer's new access token replaces the old one (now refused). */
  changePassword: async (currentPassword: string, newPassword: string): Promise<void> => {
    const r = await call<Session>("POST", "/v2/user/password", {
      body: { currentPassword, newPassword } satisfies PasswordBody,
      headers: { "x-capa-session": "cookie" },
    });
    adoptSession(r);
  },
};
