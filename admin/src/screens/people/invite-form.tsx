// The `Invite` form: e-mail and role. The answer's token is shown once, inside the link the
// person opens to accept; a server that sends mail mails the link instead and answers no token.
// The form says beforehand which of the two will happen.
import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { ApiError } from "../../api/client.ts";
import { peopleApi, ROLE_WORDS, type Role } from "../../api/people.ts";
import { Refusal } from "../../ui/refusal.tsx";
import { ownerOnly } from "./owner-only.tsx";

/** The form; `onInvited` receives the e-mail and the one-time token, or null when the server mailed it. */
export function InviteForm(props: { projectId: string; mail: boolean | null; onInvited(email: string, token: string | null): void; onCancel(): void }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("editor");
  const invite = useMutation({
    mutationFn: () => peopleApi.invite(props.projectId, email.trim(), role),
    onSuccess: (r) => props.onInvited(r.invitation.email, r.invitation.token ?? null),
  });
  const err = invite.error instanceof ApiError ? invite.error : null;
  const emailError = err?.field === "email" ? err.message : null;
  function submit(e: FormEvent) {
    e.preventDefault();
    invite.mutate();
  }
  return (
    <form className="card form-stack" onSubmit={submit} aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      {props.mail !== null && (
        <p className="muted">
          {props.mail
            ? "Capa mails them a link to join; it works once, for 7 days."
            : "This server sends no mail: you get a link to pass on yourself. It works once, for 7 days."}
        </p>
      )}
      <div className="field">
        <label htmlFor="invite-email">Email</label>
        <input
          id="invite-email"
          type="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? "invite-email-error" : undefined}
        />
        {emailError && (
          <p className="error" id="invite-email-error">
            {emailError}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="invite-role">Role</label>
        <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {Object.entries(ROLE_WORDS).map(([r, w]) => (
            <option key={r} value={r}>
              {w}
            </option>
          ))}
        </select>
      </div>
      {invite.error && !emailError && (ownerOnly(invite.error) ?? <Refusal error={invite.error} />)}
      <div className="toolbar">
        <button type="submit" className="btn btn-primary" disabled={invite.isPending}>
          Send invitation
        </button>
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
