// What a key may do, shared by `New key` and `Edit`: a preset or custom scopes, the custom ones
// optionally limited to one model (resource:action:<model id>, decisions.md 5). The server's
// refusal of a scope (not one a key can hold, or not held by the person) is shown here.
import type { ApiKey, Grantable } from "../../api/keys.ts";
import type { Model } from "../../api/types.ts";
import { scopeWords } from "./scope-words.ts";

/** The words people read for each preset of decisions.md 5. */
export const PRESET_WORDS: Record<string, string> = {
  read_only: "Read only",
  content_writer: "Content writer",
  full_integration: "Full integration",
  schema_builder: "Schema builder",
};

/** The picker's state: a preset name or "custom", the custom scopes and the model they are limited to. */
export interface Access {
  access: string;
  scopes: Set<string>;
  limit: string;
}

const PER_MODEL = /^(instance|model):/;

/** The scopes a state stands for (a preset's own list, or the custom ones with the limit applied). */
export function scopesOf(a: Access, presets: Grantable["presets"]): string[] {
  if (a.access !== "custom") return presets.find((p) => p.name === a.access)?.scopes ?? [];
  return [...a.scopes].map((sc) => (a.limit && PER_MODEL.test(sc) ? `${sc}:${a.limit}` : sc));
}

/**
 * The state of a key's scopes: its preset when they are exactly one, else custom. A limit is
 * read back only when every entry and model scope names the same model; `mixed` says the key's
 * limits cannot be shown in one select (saving custom scopes then replaces them).
 */
export function accessOf(k: Pick<ApiKey, "scopes">, presets: Grantable["presets"]): Access & { mixed: boolean } {
  const same = presets.find((p) => p.scopes.length === k.scopes.length && p.scopes.every((s) => k.scopes.includes(s)));
  if (same) return { access: same.name, scopes: new Set(), limit: "", mixed: false };
  const models = new Set(k.scopes.filter((s) => PER_MODEL.test(s)).map((s) => s.split(":")[2] ?? ""));
  const limit = models.size === 1 ? [...models][0]! : "";
  return { access: "custom", scopes: new Set(k.scopes.map((s) => s.split(":").slice(0, 2).join(":"))), limit, mixed: models.size > 1 };
}

/** The controls; `id` prefixes the inputs' ids, `error` is the server's refusal of the scopes. */
export function ScopePicker(props: {
  id: string;
  grantable: Grantable | undefined;
  models: Model[] | undefined;
  value: Access;
  onChange(a: Access): void;
  error: string | null;
}) {
  const { value: v, id } = props;
  const errorId = `${id}-access-error`;
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-access`}>Access</label>
        <select
          id={`${id}-access`}
          value={v.access}
          onChange={(e) => props.onChange({ ...v, access: e.target.value })}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? errorId : undefined}
        >
          {props.grantable?.presets.map((p) => (
            <option key={p.name} value={p.name} disabled={!p.grantable}>
              {PRESET_WORDS[p.name] ?? p.name}
              {p.grantable ? "" : " (beyond your role)"}
            </option>
          ))}
          <option value="custom">Custom scopes</option>
        </select>
        {props.error && (
          <p className="error" id={errorId}>
            {props.error}
          </p>
        )}
      </div>
      {v.access === "custom" && (
        <fieldset className="scope-grid">
          <legend>Scopes</legend>
          {props.grantable?.scopes
            // A scope the key has but the person does not hold stays listed, so it can be taken off.
            .filter((s) => s.held || v.scopes.has(s.scope))
            .map((s) => (
              // The raw scope is the checkbox's description, shown as a tooltip on hover and focus.
              <span key={s.scope} className="tip-host">
                <label>
                  <input
                    type="checkbox"
                    checked={v.scopes.has(s.scope)}
                    aria-describedby={`${id}-scope-${s.scope.replace(":", "-")}`}
                    onChange={() => {
                      const next = new Set(v.scopes);
                      if (!next.delete(s.scope)) next.add(s.scope);
                      props.onChange({ ...v, scopes: next });
                    }}
                  />{" "}
                  {scopeWords(s.scope)}
                </label>
                <span role="tooltip" id={`${id}-scope-${s.scope.replace(":", "-")}`} className="tip mono">
                  {s.scope}
                </span>
              </span>
            ))}
        </fieldset>
      )}
      {v.access === "custom" && (
        <div className="field">
          <label htmlFor={`${id}-limit`}>Limit entry and model scopes to</label>
          <select id={`${id}-limit`} value={v.limit} onChange={(e) => props.onChange({ ...v, limit: e.target.value })}>
            <option value="">Every model</option>
            {props.models?.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </div>
      )}
    </>
  );
}
