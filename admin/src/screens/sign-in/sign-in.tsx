// Sign in with e-mail and password; afterwards go where the person was headed. "Forgot password?"
// shows only when the server sends mail (GET /v2/server), since the reset link comes by mail.
import { useState, type FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useRouter, useSearch } from "@tanstack/react-router";
import { serverSendsMail, signIn } from "../../api/session.ts";
import { useTitle } from "../shell/title.ts";

/** The sign-in screen (words: Email, Password, Sign in). */
export function SignIn() {
  const router = useRouter();
  const { redirect } = useSearch({ from: "/sign-in" });
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const mail = useQuery({ queryKey: ["server-mail"], queryFn: serverSendsMail, staleTime: Number.POSITIVE_INFINITY });
  useTitle("Sign in");

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(email, password);
      // Only paths inside the app: a crafted link cannot send the person elsewhere.
      const to = new URL(redirect?.startsWith("/") && !redirect.startsWith("//") ? redirect : "/", window.location.origin);
      await router.navigate({ to: to.pathname as "/", search: Object.fromEntries(to.searchParams) as never });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  }

  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Capa</h1>
        <div className="field">
          <label htmlFor="email">Email</label>
          <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="password">Password</label>
          <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button className="btn btn-primary" type="submit" disabled={busy}>
          Sign in
        </button>
        {mail.data && <Link to="/forgot-password">Forgot password?</Link>}
      </form>
    </main>
  );
}
