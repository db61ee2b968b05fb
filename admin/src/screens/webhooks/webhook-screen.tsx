// One webhook endpoint: its settings, `Send test`, `Rotate secret` (the new secret shown once),
// switching it off and on, `Delete`, and the deliveries log.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { EVENT_WORDS, hookApi, hookKeys } from "../../api/webhooks.ts";
import { useProject } from "../shell/project-context.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { canIntegrate, Refusal } from "../../ui/refusal.tsx";
import { SecretOnce } from "../../ui/secret-once.tsx";
import { Deliveries } from "./deliveries.tsx";
import { NewWebhookForm } from "./new-webhook-form.tsx";
import { endpointStatus } from "./webhooks-screen.tsx";
import { useTitle } from "../shell/title.ts";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** The screen of one endpoint. */
export function WebhookScreen() {
  const { webhookId } = useParams({ from: "/app/webhooks/$webhookId" });
  const { project } = useProject();
  const client = useQueryClient();
  const navigate = useNavigate();
  const hook = useQuery({ queryKey: hookKeys.one(project.id, webhookId), queryFn: () => hookApi.get(webhookId), enabled: canIntegrate(project.role) });
  useTitle(hook.data?.url, "Webhooks");
  const [notice, setNotice] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [dialog, setDialog] = useState<"rotate" | "delete" | null>(null);
  const [editing, setEditing] = useState(false);
  const [grace, setGrace] = useState("24");
  const refresh = () => {
    void client.invalidateQueries({ queryKey: hookKeys.one(project.id, webhookId) });
    void client.invalidateQueries({ queryKey: hookKeys.list(project.id) });
    void client.invalidateQueries({ queryKey: hookKeys.deliveries(project.id, webhookId) });
  };
  const test = useMutation({
    mutationFn: () => hookApi.test(webhookId),
    onSuccess: () => {
      setNotice("Test delivery queued.");
      refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: (active: boolean) => hookApi.update(webhookId, { active }),
    onSuccess: (e) => {
      setNotice(e.active ? "The webhook is on." : "The webhook is off: no deliveries are sent.");
      refresh();
    },
  });
  const rotate = useMutation({
    mutationFn: () => hookApi.rotate(webhookId, Number(grace)),
    onSuccess: (e) => {
      setDialog(null);
      setSecret(e.secret);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => hookApi.remove(webhookId),
    onSuccess: () => {
      // The endpoint is gone: drop its own answers rather than asking for them again.
      client.removeQueries({ queryKey: hookKeys.one(project.id, webhookId) });
      client.removeQueries({ queryKey: hookKeys.deliveries(project.id, webhookId) });
      void client.invalidateQueries({ queryKey: hookKeys.list(project.id), exact: true });
      void navigate({ to: "/webhooks" });
    },
  });

  if (!canIntegrate(project.role)) return <p className="notice">Your role ({project.role}) cannot see or manage webhooks.</p>;
  if (hook.isError) return <Refusal error={hook.error} />;
  if (!hook.data) return <p>Loading…</p>;
  const e = hook.data;
  const submitRotate = (ev: FormEvent) => {
    ev.preventDefault();
    rotate.mutate();
  };
  return (
    <>
      <p>
        <Link to="/webhooks">All webhooks</Link>
      </p>
      <div className="toolbar">
        <h1>{e.url}</h1>
      </div>
      <dl className="facts">
        <div>
          <dt>Status</dt>
          <dd>{endpointStatus(e)}</dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd>{e.events.map((t) => EVENT_WORDS[t] ?? t).join(", ")}</dd>
        </div>
        <div>
          <dt>Content data</dt>
          <dd>{e.includeContent ? "Included" : "Not included"}</dd>
        </div>
        <div>
          <dt>Secret</dt>
          <dd>
            <span className="mono">{e.secretPrefix}…</span>
            {e.previousSecretExpiresAt && ` (the previous secret works until ${when.format(new Date(e.previousSecretExpiresAt))})`}
          </dd>
        </div>
      </dl>
      <div className="toolbar">
        <button type="button" className="btn btn-primary" disabled={test.isPending || !e.active} onClick={() => test.mutate()}>
          Send test
        </button>
        <button type="button" className="btn" onClick={() => setEditing(true)}>
          Edit
        </button>
        <button type="button" className="btn" onClick={() => setDialog("rotate")}>
          Rotate secret
        </button>
        <button type="button" className="btn" onClick={() => toggle.mutate(!e.active)}>
          {e.active ? "Turn off" : "Turn on"}
        </button>
        <button type="button" className="btn btn-danger" onClick={() => setDialog("delete")}>
          Delete
        </button>
      </div>
      {editing && (
        <NewWebhookForm
          initial={e}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            setNotice("Webhook saved.");
            refresh();
          }}
        />
      )}
      <div aria-live="polite">{notice && <p className="notice">{notice}</p>}</div>
      {test.error && <Refusal error={test.error} />}
      {toggle.error && <Refusal error={toggle.error} />}
      {secret && <SecretOnce title="New signing secret" label="Signing secret" secret={secret} onDone={() => setSecret(null)} />}
      <Deliveries project={project.id} id={webhookId} />
      <Dialog open={dialog === "rotate"} title="Rotate the signing secret?" onCancel={() => setDialog(null)}>
        <form onSubmit={submitRotate} className="form-stack">
          <p>During the grace period Capa signs with both secrets, so your receiver can switch without missing a delivery.</p>
          <div className="field">
            <label htmlFor="hook-grace">Grace period (hours)</label>
            <input id="hook-grace" type="number" min={0} max={168} value={grace} onChange={(ev) => setGrace(ev.target.value)} />
          </div>
          {rotate.error && <Refusal error={rotate.error} />}
          <div className="toolbar">
            <button type="submit" className="btn btn-primary" disabled={rotate.isPending}>
              Rotate
            </button>
            <button type="button" className="btn" onClick={() => setDialog(null)}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>
      <Dialog open={dialog === "delete"} title="Delete this webhook?" onCancel={() => setDialog(null)}>
        <p>Capa stops calling {e.url}, and its deliveries log is deleted with it.</p>
        {remove.error && <Refusal error={remove.error} />}
        <div className="toolbar">
          <button type="button" className="btn btn-danger-solid" disabled={remove.isPending} onClick={() => remove.mutate()}>
            Delete
          </button>
          <button type="button" className="btn" onClick={() => setDialog(null)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </>
  );
}
