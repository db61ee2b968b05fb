// The webhooks screen (issue 14 item 6): the project's endpoints and `New webhook`, whose
// signing secret is shown once. Each endpoint opens its own page with the deliveries log. The list
// is sorted by a header and searched as you type, in the browser (a project has a handful of
// endpoints), with both in the URL (ui/small-list.tsx).
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { EVENT_WORDS, type Endpoint, hookApi, hookKeys } from "../../api/webhooks.ts";
import { SortHeader } from "../../ui/sort-header.tsx";
import { SmallListBar, type SmallListSearch, type SortColumn, sortAndFilter } from "../../ui/small-list.tsx";
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

/** The sortable columns of the endpoints. */
const COLUMNS: SortColumn<Endpoint>[] = [
  { key: "url", value: (e) => e.url },
  { key: "status", value: (e) => endpointStatus(e) },
];

/** What a search finds: the URL, the description, the events and the status in words. */
const textOf = (e: Endpoint) => [e.url, e.description ?? "", ...e.events.map((t) => EVENT_WORDS[t] ?? t), ...e.events, endpointStatus(e)].join(" ");

/** The screen. */
export function WebhooksScreen() {
  useTitle("Webhooks");
  const { project } = useProject();
  const client = useQueryClient();
  const allowed = canIntegrate(project.role);
  const list = useQuery({ queryKey: hookKeys.list(project.id), queryFn: hookApi.list, enabled: allowed });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const search = useSearch({ from: "/app/webhooks" });
  const navigate = useNavigate({ from: "/webhooks" });
  const change = (patch: SmallListSearch) => void navigate({ search: (s) => ({ ...s, ...patch }), replace: true });
  const onSort = (sort: string) => change({ sort });
  const rows = sortAndFilter(list.data ?? [], COLUMNS, textOf, search);

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
        <>
          <SmallListBar
            id="webhooks-search"
            q={search.q}
            onSearch={(q) => change({ q: q || undefined })}
            shown={rows.length}
            total={list.data.length}
            noun={["webhook", "webhooks"]}
          />
          {rows.length === 0 ? (
            <p>{`No webhooks match “${search.q}”.`}</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Webhooks of {project.name}</caption>
                <thead>
                  <tr>
                    <SortHeader label="URL" sortKey="url" sort={search.sort} onSort={onSort} />
                    <th scope="col">Events</th>
                    <th scope="col">Content</th>
                    <SortHeader label="Status" sortKey="status" sort={search.sort} onSort={onSort} />
                  </tr>
                </thead>
                <tbody>
                  {rows.map((e) => (
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
      )}
    </>
  );
}
