// The `API version` a key is pinned to (interface.md, Versioning): the read API answers the key
// in this dated version unless a request names another with Svc-Version. The dates come from
// GET /api/versions, the public list every client reads (it needs no key).
import { useQuery } from "@tanstack/react-query";
import { keyApi } from "../../api/keys.ts";
import { Field } from "../../ui/field.tsx";

const STATUS_WORDS: Record<string, string> = { current: "current", supported: "supported", deprecated: "deprecated", sunset: "sunset" };

/** The newest version and the list, shared by the form and the dialog. */
export function useVersions() {
  return useQuery({ queryKey: ["api-versions"], queryFn: keyApi.versions, staleTime: 300_000 });
}

/** The select; `value` is a date, `error` the server's refusal. */
export function VersionField(props: { id: string; value: string; onChange(v: string): void; error?: string | null }) {
  const versions = useVersions();
  const list = versions.data?.versions ?? [];
  // A pin the list no longer holds still shows, so the select never claims another date.
  const known = list.some((v) => v.date === props.value);
  return (
    <Field
      id={props.id}
      label="API version"
      hint="Reads with this key answer in this version unless a request sends Svc-Version."
      error={props.error}
      extra={versions.isError && <p className="error">The list of versions could not be read: {versions.error.message}</p>}
    >
      {(aria) => (
        <select {...aria} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
          {!known && props.value && <option value={props.value}>{props.value}</option>}
          {list.map((v) => (
            <option key={v.date} value={v.date} disabled={v.status === "sunset"}>
              {v.date} ({STATUS_WORDS[v.status] ?? v.status})
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
