// The pending invitations of a project, each with `Withdraw` (its token stops working).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { peopleApi, peopleKeys, ROLE_WORDS } from "../../api/people.ts";
import { Refusal } from "../../ui/refusal.tsx";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** The list; shown to owners and admins only (the route needs member:update). */
export function Invitations({ projectId }: { projectId: string }) {
  const client = useQueryClient();
  const list = useQuery({ queryKey: peopleKeys.invitations(projectId), queryFn: () => peopleApi.invitations(projectId) });
  const withdraw = useMutation({
    mutationFn: (id: string) => peopleApi.withdraw(projectId, id),
    onSuccess: () => client.invalidateQueries({ queryKey: peopleKeys.invitations(projectId) }),
  });
  if (list.isError) return <Refusal error={list.error} />;
  const pending = list.data?.filter((i) => i.status === "pending") ?? [];
  return (
    <section className="screen-section" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Pending invitations</h2>
      {withdraw.error && <Refusal error={withdraw.error} />}
      {!list.data ? (
        <p>Loading…</p>
      ) : pending.length === 0 ? (
        <p className="muted">No pending invitations.</p>
      ) : (
        <table>
          <caption className="visually-hidden">Pending invitations</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {pending.map((i) => (
              <tr key={i.id}>
                <th scope="row">{i.email}</th>
                <td>{ROLE_WORDS[i.role] ?? i.role}</td>
                <td>
                  <time dateTime={i.expiresAt}>{when.format(new Date(i.expiresAt))}</time>
                </td>
                <td>
                  <button
                    type="button"
                    className="btn btn-quiet btn-danger"
                    aria-label={`Withdraw the invitation of ${i.email}`}
                    onClick={() => withdraw.mutate(i.id)}
                  >
                    Withdraw
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
