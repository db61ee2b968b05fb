// The page an invitation link opens (/admin/invite?token=...): a new person chooses a password
// and is signed in; someone whose e-mail already has an account signs in first and accepts.
// Every refusal of POST /v2/invitations/accept is said in words (src/domain/projects/invitations.ts).
import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { ApiError } from "../../api/client.ts";
import { peopleApi } from "../../api/people.ts";
import { adoptSession, isSignedIn, restoreSession, signOut } from "../../api/session.ts";
import { rememberProject } from "../shell/project-context.ts";
import { useTitle } from "../shell/title.ts";

/** The screen; outside the shell, reachable signed in or not. */
export function AcceptInvite() {
  useTitle("Join a project");
  const { token } = useSearch({ from: "/invite" });
  const navigate = useNavigate();
  const client = useQueryClient();
  const [password, setPassword] = useState("");
  const [needsSignIn, setNeedsSignIn] = useState(false);
  const [signedIn, setSignedIn] = useState(isSignedIn);
  // A reload keeps a cookie session: ask it once, so a signed-in person is offered Accept.
  useEffect(() => {
    if (!isSignedIn()) void restoreSession().then((ok) => setSignedIn(ok || isSignedIn()));
  }, []);
  const accept = useMutation({
    mutationFn: () => peopleApi.accept(token ?? "", signedIn ? undefined : password),
    onSuccess: (r) => {
      // A new account gets a session (201); a signed-in person joins the project (200).
      if ("accessToken" in r) adoptSession(r);
      else rememberProject(r.project.id);
      client.clear();
      void navigate({ to: "/" });
    },
    onError: (e) => {
      // The e-mail already has an account: a password is refused, they sign in as it instead.
      if (e instanceof ApiError && e.field === "password" && e.message.includes("has an account")) setNeedsSignIn(true);
    },
  });
  const here = `/invite?token=${encodeURIComponent(token ?? "")}`;
  function submit(e: FormEvent) {
    e.preventDefault();
    accept.mutate();
  }
  const error = accept.error && !needsSignIn ? accept.error : null;
  const passwordError = error instanceof ApiError && error.field === "password" ? error.message : null;
  // Signed in, an invitation for an address with no account asks for a password: the account
  // to create is someone else's, so the person signs out and opens the link again.
  const forNewAccount = signedIn && passwordError !== null;
  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="invite-title">
        <h1 id="invite-title">Join a project on Capa</h1>
        {!token ? (
          <p role="alert" className="form-error">
            This link holds no invitation token. Ask the person who invited you for the whole link.
          </p>
        ) : needsSignIn ? (
          <>
            <p>This e-mail address already has an account. Sign in as it, then accept the invitation.</p>
            <Link className="btn btn-primary" to="/sign-in" search={{ redirect: here }}>
              Sign in to accept
            </Link>
          </>
        ) : signedIn ? (
          <>
            <p>You are signed in. Accept to join the project with the role you were invited to.</p>
            <button type="submit" className="btn btn-primary" disabled={accept.isPending}>
              Accept invitation
            </button>
          </>
        ) : (
          <>
            <p>Choose a password for your new account; your e-mail is the one the invitation was sent to.</p>
            <div className="field">
              <label htmlFor="new-password">New password</label>
              <input
                id="new-password"
                type="password"
                autoComplete="new-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-invalid={passwordError ? true : undefined}
                aria-describedby={passwordError ? "new-password-error" : undefined}
              />
              {passwordError && (
                <p className="error" id="new-password-error">
                  {passwordError}
                </p>
              )}
            </div>
            <button type="submit" className="btn btn-primary" disabled={accept.isPending}>
              Accept and sign in
            </button>
            <p className="muted">
              Already have an account with this e-mail?{" "}
              <Link to="/sign-in" search={{ redirect: here }}>
                Sign in first
              </Link>
              .
            </p>
          </>
        )}
        {error && !passwordError && (
          <p role="alert" className="form-error">
            {error.message}
          </p>
        )}
        {forNewAccount && (
          <p role="alert" className="form-error">
            This invitation is for an e-mail address that has no account yet. Sign out, then open the link again to create that account.
          </p>
        )}
        {((error instanceof ApiError && error.code === "invitation_for_another_account") || forNewAccount) && (
          <button type="button" className="btn" onClick={signOut}>
            Sign out
          </button>
        )}
      </form>
    </main>
  );
}
