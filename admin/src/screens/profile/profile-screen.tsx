// The person's own profile (issue 14 item 7): their e-mail (the sign-in name, not changed here),
// `Name`, and a new password confirmed by the current one, all saved with one `Save`. The
// server's refusals are said at the field they name; a password change keeps this browser
// signed in and ends every other session.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../../api/client.ts";
import { meKey, profileApi, type Me } from "../../api/profile.ts";
import { Refusal } from "../../ui/refusal.tsx";

type Field = "name" | "currentPassword" | "newPassword";
type Errors = Partial<Record<Field | "general", string>>;

/** The screen. */
export function ProfileScreen() {
  const me = useQuery({ queryKey: meKey, queryFn: profileApi.me });
  if (me.isError) return <Refusal error={me.error} />;
  if (!me.data) return <p>Loading…</p>;
  return <ProfileForm me={me.data} />;
}

function ProfileForm({ me }: { me: Me }) {
  const client = useQueryClient();
  const [name, setName] = useState(me.name ?? "");
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: async () => {
      const said: string[] = [];
      if (name.trim() !== (me.name ?? "")) {
        client.setQueryData(meKey, await profileApi.update(name.trim() === "" ? null : name.trim()));
        said.push("Profile saved.");
      }
      if (current || next) {
        await profileApi.changePassword(current, next);
        said.push("Password changed; every other session of yours is signed out.");
      }
      return said.length ? said.join(" ") : "Nothing to save: nothing was changed.";
    },
    onSuccess: (message) => {
      setErrors({});
      setCurrent("");
      setNext("");
      setNotice(message);
    },
    onError: (e: Error) => {
      setNotice(null);
      const field = e instanceof ApiError ? e.field : null;
      if (field === "name" || field === "currentPassword" || field === "newPassword") setErrors({ [field]: e.message });
      else setErrors({ general: e.message });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    // Both password fields go together; saying so here spares a round trip.
    if (next && !current) return setErrors({ currentPassword: "Type your current password to set a new one." });
    if (current && !next) return setErrors({ newPassword: "Type the new password." });
    save.mutate();
  }

  const input = (id: Field, label: string, value: string, set: (v: string) => void, extra: Record<string, string>) => (
    <div className="field">
      <label htmlFor={`profile-${id}`}>{label}</label>
      <input
        id={`profile-${id}`}
        value={value}
        onChange={(e) => set(e.target.value)}
        aria-invalid={!!errors[id] || undefined}
        aria-describedby={errors[id] ? `profile-${id}-error` : undefined}
        {...extra}
      />
      {errors[id] && (
        <span className="error" id={`profile-${id}-error`}>
          {errors[id]}
        </span>
      )}
    </div>
  );

  return (
    <>
      <div className="toolbar">
        <h1>Your profile</h1>
      </div>
      <form className="form-stack" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="profile-email">Email</label>
          <input id="profile-email" value={me.email} readOnly aria-describedby="profile-email-hint" />
          <span className="hint" id="profile-email-hint">
            Your e-mail is how you sign in; it is not changed here.
          </span>
        </div>
        {input("name", "Name", name, setName, { autoComplete: "name" })}
        <fieldset className="form-stack">
          <legend>Password</legend>
          <p className="muted">To change your password, type the one you use now and the new one (8 to 200 characters).</p>
          {input("currentPassword", "Current password", current, setCurrent, { type: "password", autoComplete: "current-password" })}
          {input("newPassword", "New password", next, setNext, { type: "password", autoComplete: "new-password" })}
        </fieldset>
        {errors.general && (
          <p className="form-error" role="alert">
            {errors.general}
          </p>
        )}
        <div aria-live="polite">{notice && <p className="notice">{notice}</p>}</div>
        <div>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Save
          </button>
        </div>
      </form>
    </>
  );
}
