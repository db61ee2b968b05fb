// The webhooks screen (issue 14 item 6): the project's endpoints and `New webhook`, whose
// signing secret is shown once. Each endpoint opens its own page with the deliveries log.
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { EVENT_WORDS, hookApi, hookKeys } from "../../api/webhooks.ts";
import { useProject } from "../shell/project-context.ts";
import { canIntegrate, Refusal } from "../../ui/refusal.tsx";
import { SecretOnce } from "../../ui/secret-once.tsx";
import { NewWebhookForm } from "./new-webhook-form.tsx";
import { useTitle } from "../shell/title.ts";

/** The status words of an endpoint. */
export function endpointStatus(e: { active: boolean; disabledReason: string | null; failingSince: string | null }): string {
  if (!e.active) return e.disabledReason === "failing" ? "Off: failed for 5 days" : "Off";
  return e.failingSince ? "On, failing" : "On";
}

/** The screen. */
export function WebhooksScreen() {
  useTitle("Webhooks");
  const { project } = useProject();
  const client = useQueryClient();
  const allowed = canIntegrate(project.role);
  const list = useQuery({ queryKey: hookKeys.list(project.id), queryFn: hookApi.list, enabled: allowed });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);

  if (!allowed) {
    return (
      <>
        <h1>Webhooks</h1>
        <p className="notice">Your role ({project.role}) cannot see or manage webhooks. Owners, admins and developers can.</p>
      </>
    );
  }
  return (
    <>
      <div className="toolbar">
        <h1>Webhooks</h1>
        <span className="spacer" />
        {!creating && (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              setCreating(true);
              setSecret(null);
            }}
          >
            New webhook
          </button>
        )}
      </div>
      {creating && (
        <NewWebhookForm
          onCancel={() => setCreating(false)}
          onCreated={(e) => {
            setCreating(false);
            setSecret({ url: e.url, secret: e.secret });
            void client.invalidateQueries({ queryKey: hookKeys.list(project.id) });
          }}
        />
      )}
      {secret && (
        <SecretOnce
          title="Webhook created"
          label="Signing secret"
          secret={secret.secret}
          note={`Capa signs every request to ${secret.url} with this secret (Standard Webhooks); your receiver verifies with it.`}
          onDone={() => setSecret(null)}
        />
      )}
      {list.isError ? (
        <Refusal error={list.error} />
      ) : !list.data ? (
        <p>Loading…</p>
      ) : list.data.length === 0 ? (
        <p>No webhooks yet. Use “New webhook” to have Capa call your site when entries are published.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Webhooks of {project.name}</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Content</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((e) => (
                <tr key={e.id}>
                  <th scope="row">
                    <Link to="/webhooks/$webhookId" params={{ webhookId: e.id }} className="mono">
                      {e.url}
                    </Link>
                    {e.description && <div className="muted">{e.description}</div>}
                  </th>
                  <td>{e.events.map((t) => EVENT_WORDS[t] ?? t).join(", ")}</td>
                  <td>{e.includeContent ? "Included" : "Not included"}</td>
                  <td>
                    <span className={e.active && !e.failingSince ? "status status-published" : "status status-changed"}>{endpointStatus(e)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
