// Password reset by mail (decisions.md 15), outside the shell: "Forgot password?" asks for a link
// (the answer is the same whether or not the address has an account, so nobody learns which
// addresses do), and the link's page sets a new password. A link used before, or older than an
// hour, is refused in words with the way to a new one.
import { type FormEvent, useState } from "react";
import { Link, useSearch } from "@tanstack/react-router";
import { askPasswordReset, confirmPasswordReset, SessionError } from "../../api/session.ts";
import { useTitle } from "../shell/title.ts";

/** `/admin/forgot-password`: an e-mail address, then the server's sentence. */
export function ForgotPassword() {
  useTitle("Forgot password");
  const [email, setEmail] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setDone(await askPasswordReset(email.trim()));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="forgot-title">
        <h1 id="forgot-title">Forgot your password?</h1>
        {done ? (
          <p role="status">{done}</p>
        ) : (
          <>
            <p>Type the address you sign in with. A link to choose a new password is mailed to it.</p>
            <div className="field">
              <label htmlFor="email">Email</label>
              <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
            </div>
            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}
            <button className="btn btn-primary" type="submit" disabled={busy}>
              Send the link
            </button>
          </>
        )}
        <Link to="/sign-in">Back to sign in</Link>
      </form>
    </main>
  );
}

/** `/admin/reset-password?token=`: a new password for the account the mailed link is for. */
export function ResetPassword() {
  useTitle("Choose a new password");
  const { token } = useSearch({ from: "/reset-password" });
  const [password, setPassword] = useState("");
  const [done, setDone] = useState(false);
  const [error, setError] = useState<{ message: string; at: "link" | "password" } | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!token) return;
    setBusy(true);
    setError(null);
    try {
      await confirmPasswordReset(token, password);
      setDone(true);
    } catch (err) {
      const m = err instanceof Error ? err.message : String(err);
      // A 401 is the link (used, expired, unknown); anything else is about the password typed.
      setError({ message: m, at: err instanceof SessionError && err.status === 401 ? "link" : "password" });
    } finally {
      setBusy(false);
    }
  }
  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="reset-title">
        <h1 id="reset-title">Choose a new password</h1>
        {!token ? (
          <p role="alert">This address has no reset token: open the link from the mail as it is, or ask for a new one.</p>
        ) : done ? (
          <p role="status">Your password is set, and every earlier session of the account is signed out. Sign in with the new password.</p>
        ) : error?.at === "link" ? (
          <p className="form-error" role="alert">
            {error.message} Ask for a new link; each works once, for one hour.
          </p>
        ) : (
          <>
            <div className="field">
              <label htmlFor="new-password">New password</label>
              <input
                id="new-password"
                type="password"
                autoComplete="new-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? "new-password-error" : "new-password-hint"}
              />
              <p className="hint" id="new-password-hint">
                8 to 200 characters.
              </p>
              {error && (
                <p className="error" id="new-password-error">
                  {error.message}
                </p>
              )}
            </div>
            <button className="btn btn-primary" type="submit" disabled={busy}>
              Set password
            </button>
          </>
        )}
        {done ? <Link to="/sign-in">Sign in</Link> : <Link to="/forgot-password">Ask for a new link</Link>}
      </form>
    </main>
  );
}
