// The members of a project with their roles. Owners and admins change roles and remove members;
// the only owner's row offers neither (the server refuses both, so the app does not offer them)
// and, to that owner, `Transfer ownership` instead. Nobody is offered Remove on their own row:
// they leave with `Leave project`. Member and Role sort the list when their header is clicked.
import { ROLE_WORDS, type Role } from "../../api/people.ts";
import type { Member } from "../../api/types.ts";
import { SortHeader } from "../../ui/sort-header.tsx";

/**
 * The table; `me` is the signed-in person's user id; `members` every member (who the only owner
 * is), `shown` the rows to show, sorted and searched.
 */
export function MemberTable(props: {
  projectName: string;
  members: Member[];
  shown: Member[];
  sort: string | undefined;
  onSort(sort: string): void;
  me: string | null;
  manage: boolean;
  busy: boolean;
  onRole(m: Member, role: Role): void;
  onRemove(m: Member): void;
  onTransfer(): void;
}) {
  const owners = props.members.filter((m) => m.role === "owner");
  const onlyOwner = owners.length === 1 ? owners[0]!.userId : null;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Members of {props.projectName}</caption>
        <thead>
          <tr>
            <SortHeader label="Member" sortKey="member" sort={props.sort} onSort={props.onSort} />
            <SortHeader label="Role" sortKey="role" sort={props.sort} onSort={props.onSort} />
            {props.manage && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {props.shown.map((m) => {
            const only = m.userId === onlyOwner;
            const mine = m.userId === props.me;
            return (
              <tr key={m.userId}>
                <th scope="row">
                  {m.email}
                  {mine && <span className="muted"> (you)</span>}
                  {m.name && <div className="muted">{m.name}</div>}
                </th>
                <td>
                  {props.manage && !only ? (
                    <select
                      className="role-select"
                      aria-label={`Role of ${m.email}`}
                      value={m.role}
                      disabled={props.busy}
                      onChange={(e) => props.onRole(m, e.target.value as Role)}
                    >
                      {Object.entries(ROLE_WORDS).map(([r, w]) => (
                        <option key={r} value={r}>
                          {w}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <>
                      {ROLE_WORDS[m.role] ?? m.role}
                      {only && <div className="muted">The only owner</div>}
                    </>
                  )}
                </td>
                {props.manage && (
                  <td className="row-actions">
                    {only && mine && (
                      <button type="button" className="btn btn-quiet" onClick={props.onTransfer}>
                        Transfer ownership
                      </button>
                    )}
                    {!only && !mine && (
                      <button type="button" className="btn btn-quiet btn-danger" aria-label={`Remove ${m.email}`} onClick={() => props.onRemove(m)}>
                        Remove
                      </button>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
