// Handing a project on and leaving it. `Transfer ownership` makes another member owner and the
// owner an admin in one step (POST .../transfer-ownership), so a project never has no owner.
// `Leave project` deletes one's own membership; the only owner is told the way out instead of
// being offered a Leave the server would refuse.
import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { peopleApi, ROLE_WORDS } from "../../api/people.ts";
import type { Member } from "../../api/types.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";

/** The dialog of `Transfer ownership`; `members` are the project's, `me` the owner's user id. */
export function TransferDialog(props: {
  open: boolean;
  projectId: string;
  projectName: string;
  members: Member[];
  me: string | null;
  onCancel(): void;
  onDone(to: Member): void;
}) {
  const others = props.members.filter((m) => m.userId !== props.me);
  const [to, setTo] = useState("");
  const chosen = others.find((m) => m.userId === to) ?? others[0];
  const transfer = useMutation({
    mutationFn: (m: Member) => peopleApi.transfer(props.projectId, m.userId),
    onSuccess: (_r, m) => props.onDone(m),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    if (chosen) transfer.mutate(chosen);
  }
  return (
    <Dialog open={props.open} title={`Transfer ownership of ${props.projectName}`} onCancel={props.onCancel}>
      {others.length === 0 ? (
        <>
          <p>No one else is a member yet. Ownership goes to a member: invite someone first, and transfer it once they have joined.</p>
          <div className="toolbar">
            <button type="button" className="btn" onClick={props.onCancel}>
              Cancel
            </button>
          </div>
        </>
      ) : (
        <form className="form-stack" onSubmit={submit}>
          <div className="field">
            <label htmlFor="transfer-to">New owner</label>
            <select id="transfer-to" value={chosen?.userId ?? ""} onChange={(e) => setTo(e.target.value)}>
              {others.map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.email} ({ROLE_WORDS[m.role] ?? m.role})
                </option>
              ))}
            </select>
          </div>
          <p>
            {chosen?.email} becomes the owner of {props.projectName}; you become an admin and keep working here. Only an owner can give the ownership back.
          </p>
          {transfer.error && <Refusal error={transfer.error} />}
          <div className="toolbar">
            <button type="submit" className="btn btn-primary" disabled={transfer.isPending}>
              Transfer ownership
            </button>
            <button type="button" className="btn" onClick={props.onCancel}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** The dialog of `Leave project`; `onlyOwner` says the person is the project's only owner. */
export function LeaveDialog(props: {
  open: boolean;
  projectId: string;
  projectName: string;
  me: string | null;
  onlyOwner: boolean;
  canTransfer: boolean;
  onCancel(): void;
  onTransfer(): void;
  onLeft(): void;
}) {
  const leave = useMutation({
    mutationFn: () => peopleApi.remove(props.projectId, props.me ?? ""),
    onSuccess: props.onLeft,
  });
  return (
    <Dialog open={props.open} title={props.onlyOwner ? `You cannot leave ${props.projectName} yet` : `Leave ${props.projectName}?`} onCancel={props.onCancel}>
      {props.onlyOwner ? (
        <>
          <p>
            You are the only owner of {props.projectName}, and a project needs at least one owner: make another member owner first (Transfer ownership), or
            delete the project in Settings.
          </p>
          <div className="toolbar">
            {props.canTransfer && (
              <button type="button" className="btn btn-primary" onClick={props.onTransfer}>
                Transfer ownership
              </button>
            )}
            <button type="button" className="btn" onClick={props.onCancel}>
              Cancel
            </button>
          </div>
        </>
      ) : (
        <>
          <p>You lose access to {props.projectName} at once. Your account and your other projects stay; to come back, an owner or admin invites you again.</p>
          {leave.error && <Refusal error={leave.error} />}
          <div className="toolbar">
            <button type="button" className="btn btn-danger-solid" disabled={leave.isPending || !props.me} onClick={() => leave.mutate()}>
              Leave project
            </button>
            <button type="button" className="btn" onClick={props.onCancel}>
              Cancel
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
