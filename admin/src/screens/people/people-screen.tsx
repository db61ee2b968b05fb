// The People screen (issue 14 item 7): members and their roles, `Invite` (the token shown once
// inside the accept link, or on a server that sends mail, only mailed), pending invitations, changing a role and removing a member. Owners
// and admins manage; everyone else reads. Only an owner may give or take the owner role: the
// server's 403 for that is said in those words.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { peopleApi, peopleKeys, ROLE_WORDS } from "../../api/people.ts";
import type { Member } from "../../api/types.ts";
import { useProject } from "../shell/project-context.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";
import { SecretOnce } from "../../ui/secret-once.tsx";
import { InviteForm } from "./invite-form.tsx";
import { Invitations } from "./invitations.tsx";
import { ownerOnly } from "./owner-only.tsx";

/** The screen. */
export function PeopleScreen() {
  const { project } = useProject();
  const client = useQueryClient();
  const manage = project.role === "owner" || project.role === "admin";
  const members = useQuery({ queryKey: peopleKeys.members(project.id), queryFn: () => peopleApi.members(project.id) });
  const [inviting, setInviting] = useState(false);
  const [invited, setInvited] = useState<{ email: string; token: string } | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: peopleKeys.members(project.id) });
  const setRole = useMutation({
    mutationFn: (v: { m: Member; role: string }) => peopleApi.setRole(project.id, v.m.userId, v.role),
    onSuccess: (_r, v) => {
      setNotice(`${v.m.email} is now ${ROLE_WORDS[v.role] ?? v.role}.`);
      void refresh();
    },
    onError: () => void refresh(),
  });
  const remove = useMutation({
    mutationFn: (m: Member) => peopleApi.remove(project.id, m.userId),
    onSuccess: (_r, m) => {
      setRemoving(null);
      setNotice(`${m.email} is no longer a member.`);
      void refresh();
    },
  });
  const link = invited ? `${window.location.origin}/admin/invite?token=${encodeURIComponent(invited.token)}` : "";

  return (
    <>
      <div className="toolbar">
        <h1>People</h1>
        <span className="spacer" />
        {manage && !inviting && (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              setInviting(true);
              setInvited(null);
            }}
          >
            Invite
          </button>
        )}
      </div>
      {!manage && <p className="notice">You can see who is here; owners and admins invite people and change roles.</p>}
      {inviting && (
        <InviteForm
          projectId={project.id}
          onCancel={() => setInviting(false)}
          onInvited={(email, token) => {
            setInviting(false);
            // A mailed invitation's link is in the mail only: nothing to show or copy here.
            if (token === null) setNotice(`Invitation mailed to ${email}. Its link works once, for 7 days.`);
            else setInvited({ email, token });
            void client.invalidateQueries({ queryKey: peopleKeys.invitations(project.id) });
          }}
        />
      )}
      {invited && (
        <SecretOnce
          title={`Invitation for ${invited.email}`}
          label="Invitation link"
          secret={link}
          note={`Send this link to ${invited.email}. It holds a one-time token, works for 7 days and only once: they open it and choose a password, or sign in first if the address already has an account.`}
          onDone={() => setInvited(null)}
        />
      )}
      <div aria-live="polite">{notice && <p className="notice">{notice}</p>}</div>
      {setRole.error && (ownerOnly(setRole.error) ?? <Refusal error={setRole.error} />)}
      {members.isError ? (
        <Refusal error={members.error} />
      ) : !members.data ? (
        <p>Loading…</p>
      ) : (
        <table>
          <caption className="visually-hidden">Members of {project.name}</caption>
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Role</th>
              {manage && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {members.data.map((m) => (
              <tr key={m.userId}>
                <th scope="row">
                  {m.email}
                  {m.name && <div className="muted">{m.name}</div>}
                </th>
                <td>
                  {manage ? (
                    <select
                      className="role-select"
                      aria-label={`Role of ${m.email}`}
                      value={m.role}
                      disabled={setRole.isPending}
                      onChange={(e) => setRole.mutate({ m, role: e.target.value })}
                    >
                      {Object.entries(ROLE_WORDS).map(([r, w]) => (
                        <option key={r} value={r}>
                          {w}
                        </option>
                      ))}
                    </select>
                  ) : (
                    (ROLE_WORDS[m.role] ?? m.role)
                  )}
                </td>
                {manage && (
                  <td>
                    <button type="button" className="btn btn-quiet btn-danger" aria-label={`Remove ${m.email}`} onClick={() => setRemoving(m)}>
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {manage && <Invitations projectId={project.id} />}
      <Dialog open={removing !== null} title={`Remove ${removing?.email ?? ""}?`} onCancel={() => setRemoving(null)}>
        <p>They lose access to {project.name} at once. Their account and their other projects stay.</p>
        {remove.error && (ownerOnly(remove.error) ?? <Refusal error={remove.error} />)}
        <div className="toolbar">
          <button type="button" className="btn btn-danger-solid" disabled={remove.isPending} onClick={() => removing && remove.mutate(removing)}>
            Remove
          </button>
          <button type="button" className="btn" onClick={() => setRemoving(null)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </>
  );
}
