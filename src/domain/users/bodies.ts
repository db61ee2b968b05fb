// TypeBox models of the session and profile bodies (interface.md, Management routes: Sessions;
// docs/security.md, "Your own account"), and of their answers.
import { Type } from "@sinclair/typebox";
import { nullable, record, Uuid } from "../access/schema-kit.ts";

/** A password: 8 to 200 characters (every password, wherever it is set). */
export const passwordOf = (field: string) => Type.String({ minLength: 8, maxLength: 200, error: `${field} must be 8 to 200 characters` });

/** An e-mail address (edge spaces are trimmed; at most 254 characters). */
export const Email = Type.String({ maxLength: 254, pattern: "^\\s*[^\\s@]+@[^\\s@]+\\.?[^\\s@]*\\s*$", error: "email must be an e-mail address" });

/** Sign-in refuses anything but two strings as it refuses a wrong password: 401, no field named. */
const credential = Type.String({ error: "Invalid credentials", code: "invalid_credentials" });

/** POST /v2/user/login. */
export const LoginBody = Type.Object({ email: credential, password: credential }, { $id: "LoginBody" });

/** POST /v2/user/refresh-token: the refresh token, or none with the session cookie (and `x-capa-csrf: 1`). */
export const RefreshBody = Type.Object(
  { refreshToken: Type.Optional(Type.String({ minLength: 1, error: "refreshToken is required" })) },
  { $id: "RefreshBody" },
);

/** POST /v2/user/logout: the refresh token to end (without a string here, the session cookie's), and `all`. */
export const LogoutBody = Type.Object(
  {
    refreshToken: Type.Optional(Type.Unknown({ description: "The refresh token (a string) to end; any other value falls back to the session cookie." })),
    all: Type.Optional(Type.Boolean({ error: "all must be true (sign out everywhere) or false", description: "true: end every session of the person." })),
  },
  { $id: "LogoutBody" },
);

/** A trimmed text of 1 to 100 characters: edge spaces do not count. */
const NAME_100 = "^\\s*(?=\\S)[\\s\\S]{0,100}(?<=\\S)\\s*$";

/** PATCH /v2/user/me. */
export const ProfileBody = Type.Object(
  {
    name: Type.Union([Type.Null(), Type.String({ pattern: NAME_100 })], {
      error: "name must be a text of 1 to 100 characters, or null to clear it",
      missing: "name is required: a text of 1 to 100 characters, or null to clear it",
    }),
  },
  { $id: "ProfileBody", additionalProperties: false, unknown: "{field} cannot be set here; send { name }" },
);

/** POST /v2/user/password. */
export const PasswordBody = Type.Object(
  {
    currentPassword: Type.String({ minLength: 1, error: "currentPassword is required" }),
    newPassword: passwordOf("newPassword"),
  },
  { $id: "PasswordBody", additionalProperties: false, unknown: "{field} cannot be set here; send { currentPassword, newPassword }" },
);

/** POST /v2/user/password-reset. */
export const PasswordResetBody = Type.Object(
  { email: Email },
  { $id: "PasswordResetBody", additionalProperties: false, unknown: "{field} is not a field of this request; send { email }" },
);

/** POST /v2/user/password-reset/confirm: the token of the mailed link and the new password. */
export const PasswordResetConfirmBody = Type.Object(
  { token: Type.String({ minLength: 1, error: "token is required: the one in the link of the mail" }), password: passwordOf("password") },
  { $id: "PasswordResetConfirmBody", additionalProperties: false, unknown: "{field} is not a field of this request; send { token, password }" },
);

/** The answer to a reset request, the same whether or not the address has an account. */
export const ResetAsked = record({ message: Type.String() }, { $id: "ResetAsked" });

/** A session: the access token, and the refresh token unless it went into the session cookie. */
export const Session = record(
  {
    accessToken: Type.String({ description: "A JWT; send it as Authorization: Bearer." }),
    refreshToken: Type.Optional(Type.String({ description: "Single use; absent with a cookie session (x-capa-session: cookie)." })),
  },
  { $id: "Session" },
);

export const Profile = record({ id: Uuid, email: Type.String(), name: nullable(Type.String()) }, { $id: "Profile" });
