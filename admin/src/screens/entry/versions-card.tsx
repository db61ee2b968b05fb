// The version history of an entry: who saved each version and when, a field-by-field comparison
// of any two (each value shown by its kind's cell), and restoring one as a new draft (the
// server's restore route).
import { useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, keys } from "../../api/client.ts";
import { labelOf } from "../../api/models.ts";
import type { Entry, Member, Model } from "../../api/types.ts";
import { useProject } from "../shell/project-context.ts";
import { canEditEntries } from "../../ui/refusal.tsx";
import { ValueCell } from "../../fields/value-cell.tsx";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Who saved a version, in words. */
export function actorName(by: string | null | undefined, members: Member[] | undefined): string {
  if (!by) return "Unknown";
  if (by.startsWith("api_key:")) return "API key";
  const m = members?.find((x) => `user:${x.userId}` === by);
  return m ? (m.name ?? m.email) : "A person";
}

/** The Versions card; `onRestored` gets the entry after a restore so the form shows it. */
export function VersionsCard({ entry, model, onRestored }: { entry: Entry; model: Model; onRestored(e: Entry): void }) {
  const { project } = useProject();
  const versions = useQuery({ queryKey: keys.versions(project.id, `${entry.id}:${entry.version}`), queryFn: () => api.entries.versions(entry.id) });
  const members = useQuery({ queryKey: keys.members(project.id), queryFn: () => api.projects.members(project.id) });
  const list = versions.data ?? [];
  const [a, setA] = useState<number | null>(null);
  const [b, setB] = useState<number | null>(null);
  const left = list.find((v) => v.number === a) ?? list[1] ?? list[0];
  const right = list.find((v) => v.number === b) ?? list[0];
  const restore = useMutation({
    mutationFn: (versionId: string) => api.entries.restore(entry.id, versionId),
    onSuccess: onRestored,
  });
  const changed =
    left && right ? model.fields.filter((f) => JSON.stringify(left.data[f.namespace] ?? null) !== JSON.stringify(right.data[f.namespace] ?? null)) : [];

  return (
    <section className="card" aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      {!versions.data ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <ol reversed className="version-list">
            {list.map((v) => (
              <li key={v.id}>
                Version {v.number} by {actorName(v.createdBy, members.data)}, <time dateTime={v.createdAt}>{when.format(new Date(v.createdAt))}</time>
                {v.published ? " (published)" : ""}
              </li>
            ))}
          </ol>
          {list.length > 1 && left && right && (
            <>
              <h3>Compare versions</h3>
              <div className="toolbar">
                <div className="field">
                  <label htmlFor="compare-a">Compare</label>
                  <select id="compare-a" value={left.number} onChange={(e) => setA(Number(e.target.value))}>
                    {list.map((v) => (
                      <option key={v.id} value={v.number}>{`Version ${v.number}`}</option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor="compare-b">With</label>
                  <select id="compare-b" value={right.number} onChange={(e) => setB(Number(e.target.value))}>
                    {list.map((v) => (
                      <option key={v.id} value={v.number}>{`Version ${v.number}`}</option>
                    ))}
                  </select>
                </div>
              </div>
              {changed.length === 0 ? (
                <p className="muted">No field differs.</p>
              ) : (
                <table>
                  <caption className="visually-hidden">{`Fields that differ between version ${left.number} and version ${right.number}`}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Field</th>
                      <th scope="col">{`Version ${left.number}`}</th>
                      <th scope="col">{`Version ${right.number}`}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {changed.map((f) => (
                      <tr key={f.id}>
                        <th scope="row">{labelOf(f)}</th>
                        <td>
                          <ValueCell field={f} value={left.data[f.namespace]} />
                        </td>
                        <td>
                          <ValueCell field={f} value={right.data[f.namespace]} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              {left.number !== entry.version && canEditEntries(project.role) && (
                <p>
                  <button type="button" className="btn" disabled={restore.isPending} onClick={() => restore.mutate(left.id)}>
                    {`Restore version ${left.number} as a new draft`}
                  </button>
                </p>
              )}
              {restore.isError && (
                <p className="form-error" role="alert">
                  {restore.error.message}
                </p>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
