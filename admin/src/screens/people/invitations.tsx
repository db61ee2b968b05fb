// The invitations of a project not yet accepted (pending or expired), each still offering what
// the inviter needs: on a server without mail `Copy link` (tokens are stored hashed, so this is a
// fresh link and the earlier one stops working), on a server with mail `Resend` (mailed again), and
// `Revoke` (its link stops working). Owners and admins only (the routes need member:update).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type Invitation, peopleApi, peopleKeys, ROLE_WORDS } from "../../api/people.ts";
import { Refusal } from "../../ui/refusal.tsx";
import { ownerOnly } from "./owner-only.tsx";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/** The list; `mail` says whether the server mails invitations, `onLink` shows a fresh link to copy. */
export function Invitations(props: { projectId: string; mail: boolean; onLink(email: string, token: string): void; onNotice(text: string): void }) {
  const { projectId } = props;
  const client = useQueryClient();
  const list = useQuery({ queryKey: peopleKeys.invitations(projectId), queryFn: () => peopleApi.invitations(projectId) });
  const refresh = () => client.invalidateQueries({ queryKey: peopleKeys.invitations(projectId) });
  const revoke = useMutation({
    mutationFn: (i: Invitation) => peopleApi.revoke(projectId, i.id),
    onSuccess: (_r, i) => {
      props.onNotice(`The invitation of ${i.email} is revoked: its link no longer works.`);
      void refresh();
    },
  });
  const reissue = useMutation({
    mutationFn: (i: Invitation) => peopleApi.reissue(projectId, i.id),
    onSuccess: (r) => {
      if (r.token) props.onLink(r.email, r.token);
      else props.onNotice(`Invitation mailed again to ${r.email}. The earlier link no longer works; the new one works once, for 7 days.`);
      void refresh();
    },
  });
  if (list.isError) return <Refusal error={list.error} />;
  const open = list.data?.filter((i) => i.status !== "accepted") ?? [];
  const error = revoke.error ?? reissue.error;
  return (
    <section className="screen-section" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Pending invitations</h2>
      {error && (ownerOnly(error) ?? <Refusal error={error} />)}
      {!list.data ? (
        <p>Loading…</p>
      ) : open.length === 0 ? (
        <p className="muted">No pending invitations.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Pending invitations</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Link</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {open.map((i) => (
                <tr key={i.id}>
                  <th scope="row">{i.email}</th>
                  <td>{ROLE_WORDS[i.role] ?? i.role}</td>
                  <td>
                    {i.status === "expired" ? "Expired on " : "Works until "}
                    <time dateTime={i.expiresAt}>{when.format(new Date(i.expiresAt))}</time>
                  </td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="btn btn-quiet"
                      aria-label={props.mail ? `Resend the invitation of ${i.email}` : `Copy link for ${i.email}`}
                      disabled={reissue.isPending}
                      onClick={() => reissue.mutate(i)}
                    >
                      {props.mail ? "Resend" : "Copy link"}
                    </button>
                    <button
                      type="button"
                      className="btn btn-quiet btn-danger"
                      aria-label={`Revoke the invitation of ${i.email}`}
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate(i)}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
