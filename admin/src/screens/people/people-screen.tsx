// The People screen (issue 14 item 7, issue 27 item 6): members and their roles, `Invite` (on a
// server that sends mail the link is mailed; otherwise it is shown to copy), the invitations not yet
// accepted (copy a fresh link or resend, revoke), changing a role, removing a member, transferring
// ownership and leaving the project. Owners and admins manage; everyone else reads. Only an owner
// may give or take the owner role: the server's 403 for that is said in those words. The members
// are sorted by a header and searched as you type, in the browser, both in the URL.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { actInProject, keys } from "../../api/client.ts";
import { invitationLink, peopleApi, peopleKeys, ROLE_WORDS, type Role } from "../../api/people.ts";
import { meKey, profileApi } from "../../api/profile.ts";
import { serverSendsMail } from "../../api/session.ts";
import type { Member } from "../../api/types.ts";
import { useProject } from "../shell/project-context.ts";
import { useTitle } from "../shell/title.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";
import { SecretOnce } from "../../ui/secret-once.tsx";
import { SmallListBar, type SmallListSearch, type SortColumn, sortAndFilter } from "../../ui/small-list.tsx";
import { InviteForm } from "./invite-form.tsx";
import { Invitations } from "./invitations.tsx";
import { MemberTable } from "./member-table.tsx";
import { ownerOnly } from "./owner-only.tsx";
import { LeaveDialog, TransferDialog } from "./ownership-dialogs.tsx";

type Link = { email: string; token: string; fresh: boolean };

const RANK = Object.keys(ROLE_WORDS);
/** The sortable columns of the members: by address, and by role from owner down. */
const COLUMNS: SortColumn<Member>[] = [
  { key: "member", value: (m) => m.email },
  { key: "role", value: (m) => RANK.indexOf(m.role) },
];
/** What a search finds: the address, the name and the role in words. */
const textOf = (m: Member) => [m.email, m.name ?? "", ROLE_WORDS[m.role] ?? m.role].join(" ");

/** The screen. */
export function PeopleScreen() {
  useTitle("People");
  const { project } = useProject();
  const client = useQueryClient();
  const navigate = useNavigate();
  const manage = project.role === "owner" || project.role === "admin";
  const members = useQuery({ queryKey: peopleKeys.members(project.id), queryFn: () => peopleApi.members(project.id) });
  const me = useQuery({ queryKey: meKey, queryFn: profileApi.me });
  const mail = useQuery({ queryKey: ["server-mail"], queryFn: serverSendsMail, staleTime: Number.POSITIVE_INFINITY });
  const [inviting, setInviting] = useState(false);
  const [link, setLink] = useState<Link | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [dialog, setDialog] = useState<"transfer" | "leave" | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: peopleKeys.members(project.id) });
  const setRole = useMutation({
    mutationFn: (v: { m: Member; role: Role }) => peopleApi.setRole(project.id, v.m.userId, v.role),
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
  const myId = me.data?.id ?? null;
  const list = members.data ?? [];
  const owners = list.filter((m) => m.role === "owner");
  const onlyOwner = owners.length === 1 && owners[0]!.userId === myId;
  const search = useSearch({ from: "/app/people" });
  const changeList = (patch: SmallListSearch) => void navigate({ to: "/people", search: (s) => ({ ...s, ...patch }), replace: true });
  const rows = sortAndFilter(list, COLUMNS, textOf, search);

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
              setLink(null);
            }}
          >
            Invite
          </button>
        )}
        <button type="button" className="btn" disabled={!members.data || !myId} onClick={() => setDialog("leave")}>
          Leave project
        </button>
      </div>
      {!manage && <p className="notice">You can see who is here; owners and admins invite people and change roles.</p>}
      {inviting && (
        <InviteForm
          projectId={project.id}
          mail={mail.data ?? null}
          onCancel={() => setInviting(false)}
          onInvited={(email, token) => {
            setInviting(false);
            // A mailed invitation's link is in the mail only: nothing to show or copy here.
            if (token === null) setNotice(`Invitation mailed to ${email}. Its link works once, for 7 days.`);
            else setLink({ email, token, fresh: false });
            void client.invalidateQueries({ queryKey: peopleKeys.invitations(project.id) });
          }}
        />
      )}
      {link && (
        <SecretOnce
          title={link.fresh ? `New link for ${link.email}` : `Invitation for ${link.email}`}
          label="Invitation link"
          secret={invitationLink(link.token)}
          note={`${link.fresh ? "The earlier link no longer works. " : ""}Send this link to ${link.email}. It holds a one-time token, works for 7 days and only once: they open it and choose a password, or sign in first if the address already has an account.`}
          onDone={() => setLink(null)}
        />
      )}
      <div aria-live="polite">{notice && <p className="notice">{notice}</p>}</div>
      {setRole.error && (ownerOnly(setRole.error) ?? <Refusal error={setRole.error} />)}
      {members.isError ? (
        <Refusal error={members.error} />
      ) : !members.data ? (
        <p>Loading…</p>
      ) : (
        <>
          <SmallListBar
            id="people-search"
            q={search.q}
            onSearch={(q) => changeList({ q: q || undefined })}
            shown={rows.length}
            total={list.length}
            noun={["member", "members"]}
          />
          {rows.length === 0 ? (
            <p>{`No members match “${search.q}”.`}</p>
          ) : (
            <MemberTable
              projectName={project.name}
              members={members.data}
              shown={rows}
              sort={search.sort}
              onSort={(sort) => changeList({ sort })}
              me={myId}
              manage={manage}
              busy={setRole.isPending}
              onRole={(m, role) => setRole.mutate({ m, role })}
              onRemove={setRemoving}
              onTransfer={() => setDialog("transfer")}
            />
          )}
        </>
      )}
      {/* Whether the server mails decides Resend or Copy link; either answer of a reissue is handled. */}
      {manage && (mail.data !== undefined || mail.isError) && (
        <Invitations
          projectId={project.id}
          mail={mail.data ?? false}
          onLink={(email, token) => {
            setInviting(false);
            setLink({ email, token, fresh: true });
          }}
          onNotice={setNotice}
        />
      )}
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
      {members.data && (
        <>
          <TransferDialog
            open={dialog === "transfer"}
            projectId={project.id}
            projectName={project.name}
            members={members.data}
            me={myId}
            onCancel={() => setDialog(null)}
            onDone={(to) => {
              setDialog(null);
              setNotice(`${to.email} is now the owner of ${project.name}; you are an admin.`);
              void refresh();
              // The person's role in the project changed: the shell's project list says it.
              void client.invalidateQueries({ queryKey: keys.projects() });
            }}
          />
          <LeaveDialog
            open={dialog === "leave"}
            projectId={project.id}
            projectName={project.name}
            me={myId}
            onlyOwner={onlyOwner}
            canTransfer={members.data.length > 1}
            onCancel={() => setDialog(null)}
            onTransfer={() => setDialog("transfer")}
            onLeft={() => {
              setDialog(null);
              // Out of the project: requests stop naming it (the server refuses a project one is not in),
              // and the shell opens another one (or says there is none) from the new list.
              actInProject(null);
              void client.invalidateQueries({ queryKey: keys.projects() }).then(() => navigate({ to: "/" }));
            }}
          />
        </>
      )}
    </>
  );
}
