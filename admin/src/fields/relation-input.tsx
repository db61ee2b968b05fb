// A relation value: a picker of the related model's entries by title, and, as the entry layout
// asks, the chosen entry as a link that opens it (`inline`) or its fields shown read-only in
// place (`embedded`).
import { useDeferredValue, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { api, keys } from "../api/client.ts";
import { entryTitle, labelOf } from "../api/models.ts";
import type { Model } from "../api/types.ts";
import type { InputProps } from "./kinds.tsx";

/** A value in a few words, for read-only display. */
function short(v: unknown): string {
  if (v === null || v === undefined || v === "") return "—";
  // A media value reads best as its URL.
  if (typeof v === "object" && !Array.isArray(v) && typeof (v as { url?: unknown }).url === "string") return short((v as { url: string }).url);
  const text = typeof v === "string" ? v : JSON.stringify(v);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** The related entry's fields, read-only. */
function Embedded({ id, model, projectId }: { id: string; model: Model; projectId: string }) {
  const entry = useQuery({ queryKey: keys.entry(projectId, id), queryFn: () => api.entries.get(id) });
  if (!entry.data) return <p className="muted">Loading…</p>;
  return (
    <section className="embedded" aria-label={`${model.name}: ${entryTitle(model, entry.data)}`}>
      <dl>
        {model.fields.map((f) => (
          <div key={f.id}>
            <dt className="muted">{labelOf(f)}</dt>
            <dd>{short(entry.data.draft.data[f.namespace])}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * Choose an entry of the related model by its title: the newest 200, or those whose text matches
 * what is typed in the search box beside the choice (the server's `q`, so 100,000 entries work).
 */
export function RelationInput(p: InputProps) {
  const target = p.models.find((m) => m.id === p.field.relation);
  const ns = target?.namespace ?? "";
  const [search, setSearch] = useState("");
  // Typing never waits for the network: the list follows the text a little behind.
  const q = useDeferredValue(search.trim());
  const list = useQuery({
    queryKey: [...keys.entryList(p.projectId, ns, { q }), "picker"],
    queryFn: () => api.entries.list(ns, q ? { q } : {}, null, 200),
    enabled: !!target,
    placeholderData: (previous) => previous,
  });
  const options = list.data?.data ?? [];
  const value = typeof p.value === "string" ? p.value : "";
  const chosen = options.find((o) => o.id === value);
  return (
    <div className="relation">
      {target && (
        <input
          type="search"
          aria-label={`Search ${labelOf(p.field)}`}
          placeholder={`Search ${target.name}`}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      )}
      <select
        id={p.id}
        aria-invalid={p.invalid || undefined}
        aria-describedby={p.errorId}
        aria-required={p.field.required || undefined}
        value={value}
        onChange={(e) => p.onChange(e.target.value || null)}
      >
        <option value="">None</option>
        {value && !chosen && <option value={value}>{value}</option>}
        {target &&
          options.map((o) => (
            <option key={o.id} value={o.id}>
              {entryTitle(target, o)}
            </option>
          ))}
      </select>
      {target && value && p.display === "inline" && (
        <Link to="/content/$model/$entryId" params={{ model: target.namespace, entryId: value }}>
          {`Open ${chosen ? entryTitle(target, chosen) : "the related entry"}`}
        </Link>
      )}
      {target && value && p.display === "embedded" && <Embedded id={value} model={target} projectId={p.projectId} />}
    </div>
  );
}
