// The API keys screen (issue 14 item 5): every key of the project with its status, last use and
// the domains it was used from and its API version; mint, edit (access and version too), rotate,
// revoke and reactivate. Sorted by a header and searched as you type, in the browser (a project
// has a handful of keys), with both in the URL (ui/small-list.tsx). Loaded lazily.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { keyApi, keyListKey, type ApiKey, type Grantable } from "../../api/keys.ts";
import { useProject } from "../shell/project-context.ts";
import { canIntegrate, Refusal } from "../../ui/refusal.tsx";
import { SecretOnce } from "../../ui/secret-once.tsx";
import { NewKeyForm } from "./new-key-form.tsx";
import { PRESET_WORDS } from "./scope-picker.tsx";
import { ScopeLines } from "./scope-tip.tsx";
import { api, keys } from "../../api/client.ts";
import { useTitle } from "../shell/title.ts";
import { EditDialog, RotateDialog } from "./key-dialogs.tsx";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { SortHeader } from "../../ui/sort-header.tsx";
import { SmallListBar, type SmallListSearch, type SortColumn, sortAndFilter } from "../../ui/small-list.tsx";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** The status word of a key, as of now. */
export function keyStatus(k: ApiKey, now = Date.now()): string {
  if (!k.active) return "Revoked";
  if (k.expiresAt && Date.parse(k.expiresAt) <= now) return "Expired";
  if (k.expiresAt) return `Active until ${when.format(new Date(k.expiresAt))}`;
  return "Active";
}

/** The name of a key's access: its preset, `Legacy (read)`, or `Custom`. */
function accessName(k: ApiKey, presets: Grantable["presets"] | undefined): string {
  if (k.bundle === "legacy") return `Legacy (${k.permission})`;
  const same = presets?.find((p) => p.scopes.length === k.scopes.length && p.scopes.every((s) => k.scopes.includes(s)));
  if (same) return PRESET_WORDS[same.name] ?? same.name;
  return "Custom";
}

/** A key's access: its name, then what it may do in words (the raw scopes in tooltips). */
function Access({ k, presets, modelName }: { k: ApiKey; presets: Grantable["presets"] | undefined; modelName(id: string): string | null }) {
  return (
    <>
      <strong className="access-name">{accessName(k, presets)}</strong>
      <ScopeLines scopes={k.scopes} environment={k.environment} modelName={modelName} />
    </>
  );
}

function Domains({ id }: { id: string }) {
  const q = useQuery({ queryKey: ["api-key-domains", id], queryFn: () => keyApi.domains(id) });
  if (q.isError) return <span className="muted">—</span>;
  if (!q.data) return <span className="muted">…</span>;
  return q.data.length ? <span>{q.data.map((d) => d.domain).join(", ")}</span> : <span className="muted">None yet</span>;
}

/** The sortable columns of the keys. */
const COLUMNS: SortColumn<ApiKey>[] = [
  { key: "name", value: (k) => k.name },
  { key: "version", value: (k) => k.version },
  { key: "status", value: (k) => keyStatus(k) },
  { key: "lastUsed", value: (k) => k.lastUsedAt },
];

type Shown = { title: string; secret: string; note?: string };
type Open = { kind: "edit" | "rotate"; key: ApiKey } | null;

/** The screen. */
export function KeysScreen() {
  useTitle("API keys");
  const { project } = useProject();
  const client = useQueryClient();
  const allowed = canIntegrate(project.role);
  const list = useQuery({ queryKey: keyListKey(project.id), queryFn: keyApi.list, enabled: allowed });
  const grantable = useQuery({ queryKey: ["api-keys-grantable"], queryFn: keyApi.grantable, enabled: allowed });
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list, enabled: allowed });
  const names = new Map(models.data?.map((m) => [m.id, m.name]));
  // Until the models are in, a limited scope's model is "…" rather than "a deleted model".
  const modelName = (id: string) => (models.data ? (names.get(id) ?? null) : "…");
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const search = useSearch({ from: "/app/keys" });
  const navigate = useNavigate({ from: "/keys" });
  const change = (patch: SmallListSearch) => void navigate({ search: (s) => ({ ...s, ...patch }), replace: true });
  const onSort = (sort: string) => change({ sort });
  // What a search finds: the name, the key's start, its environment, access and status in words.
  const text = (k: ApiKey) => [k.name, k.keyPrefix, k.environment, accessName(k, grantable.data?.presets), keyStatus(k), k.version].join(" ");
  const rows = sortAndFilter(list.data ?? [], COLUMNS, text, search);
  const refresh = () => client.invalidateQueries({ queryKey: keyListKey(project.id) });
  const active = useMutation({
    mutationFn: (v: { key: ApiKey; active: boolean }) => keyApi.setActive(v.key.id, v.active),
    onSuccess: (_r, v) => {
      setNotice(v.active ? `${v.key.name} is active again.` : `${v.key.name} is revoked: requests with it are refused.`);
      void refresh();
    },
  });

  if (!allowed) {
    return (
      <>
        <h1>API keys</h1>
        <p className="notice">Your role ({project.role}) cannot see or manage API keys. Owners, admins and developers can.</p>
      </>
    );
  }
  return (
    <>
      <div className="toolbar">
        <h1>API keys</h1>
        <span className="spacer" />
        {!creating && (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              setCreating(true);
              setShown(null);
            }}
          >
            New key
          </button>
        )}
      </div>
      {creating && (
        <NewKeyForm
          onCancel={() => setCreating(false)}
          onMinted={(k) => {
            setCreating(false);
            setShown({ title: `Key ${k.name} created`, secret: k.apiKey });
            void refresh();
          }}
        />
      )}
      {shown && <SecretOnce title={shown.title} label="Secret" secret={shown.secret} note={shown.note} onDone={() => setShown(null)} />}
      <div aria-live="polite">{notice && <p className="notice">{notice}</p>}</div>
      {active.error && <Refusal error={active.error} />}
      {list.isError ? (
        <Refusal error={list.error} />
      ) : !list.data ? (
        <p>Loading…</p>
      ) : list.data.length === 0 ? (
        <p>No keys yet. Use “New key” to mint one for your site or a script.</p>
      ) : (
        <>
          <SmallListBar
            id="keys-search"
            q={search.q}
            onSearch={(q) => change({ q: q || undefined })}
            shown={rows.length}
            total={list.data.length}
            noun={["key", "keys"]}
          />
          {rows.length === 0 ? (
            <p>{`No keys match “${search.q}”.`}</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">API keys of {project.name}</caption>
                <thead>
                  <tr>
                    <SortHeader label="Name" sortKey="name" sort={search.sort} onSort={onSort} />
                    <th scope="col">Key</th>
                    <th scope="col">Access</th>
                    <SortHeader label="API version" sortKey="version" sort={search.sort} onSort={onSort} />
                    <SortHeader label="Status" sortKey="status" sort={search.sort} onSort={onSort} />
                    <SortHeader label="Last used" sortKey="lastUsed" first="desc" sort={search.sort} onSort={onSort} />
                    <th scope="col">Domains seen</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((k) => (
                    <tr key={k.id}>
                      <th scope="row">{k.name}</th>
                      <td>
                        <span className="mono">{k.keyPrefix}…</span>{" "}
                        <span className="muted">{k.environment === "production" ? "Production" : "Development"}</span>
                      </td>
                      <td>
                        <Access k={k} presets={grantable.data?.presets} modelName={modelName} />
                      </td>
                      <td className="mono">{k.version}</td>
                      <td>
                        <span className={k.active ? "status status-published" : "status"}>{keyStatus(k)}</span>
                      </td>
                      <td>
                        {k.lastUsedAt ? <time dateTime={k.lastUsedAt}>{when.format(new Date(k.lastUsedAt))}</time> : <span className="muted">Never</span>}
                      </td>
                      <td>
                        <Domains id={k.id} />
                      </td>
                      <td className="row-actions">
                        <button type="button" className="btn btn-quiet" aria-label={`Edit ${k.name}`} onClick={() => setOpen({ kind: "edit", key: k })}>
                          Edit
                        </button>
                        {k.active && (
                          <button type="button" className="btn btn-quiet" aria-label={`Rotate ${k.name}`} onClick={() => setOpen({ kind: "rotate", key: k })}>
                            Rotate
                          </button>
                        )}
                        <button
                          type="button"
                          className={k.active ? "btn btn-quiet btn-danger" : "btn btn-quiet"}
                          aria-label={`${k.active ? "Revoke" : "Reactivate"} ${k.name}`}
                          onClick={() => active.mutate({ key: k, active: !k.active })}
                        >
                          {k.active ? "Revoke" : "Reactivate"}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
      {open?.kind === "edit" && (
        <EditDialog
          apiKey={open.key}
          onCancel={() => setOpen(null)}
          onDone={() => {
            setOpen(null);
            void refresh();
          }}
        />
      )}
      {open?.kind === "rotate" && (
        <RotateDialog
          apiKey={open.key}
          onCancel={() => setOpen(null)}
          onRotated={(k, oldExpires) => {
            setOpen(null);
            setShown({ title: `Key ${k.name} rotated`, secret: k.apiKey, note: `The old secret stops working at ${when.format(new Date(oldExpires))}.` });
            void refresh();
          }}
        />
      )}
    </>
  );
}
