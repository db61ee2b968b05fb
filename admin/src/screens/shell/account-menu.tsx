// The person's account menu at the foot of the rail: their profile link, `Sign out` (this
// session) and `Sign out everywhere` (every session of theirs, on every device; docs/security.md,
// "Signing out"). Signing out makes the router show the sign-in screen.
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { signOut, signOutEverywhere } from "../../api/session.ts";

/** The menu; `name` is the person's name, or their e-mail when they gave none. */
export function AccountMenu(props: { name: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function everywhere() {
    setBusy(true);
    setError(null);
    try {
      await signOutEverywhere();
    } catch (e) {
      setError(`Not signed out everywhere: ${e instanceof Error ? e.message : String(e)}`);
      setBusy(false);
    }
  }
  return (
    <div className="person">
      <Link to="/profile" className="person-link">
        <span className="person-name">{props.name}</span>
        <span className="muted">Your profile</span>
      </Link>
      <button type="button" className="btn" onClick={signOut}>
        Sign out
      </button>
      <button type="button" className="btn" disabled={busy} onClick={() => void everywhere()}>
        Sign out everywhere
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
