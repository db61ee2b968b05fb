// The rules of a field (decisions.md 15), shown in the field form for the settings its kind
// takes (fields/table.ts): Unique, the bounds, the pattern and its message, a slug's source, the
// default value and the help text. The server checks them (a setting that does not fit is refused, naming it) and
// enforces them on every save (unique) or at publish (the rest).
import type { Field, FieldType } from "../../api/types.ts";
import { FIELD_KINDS } from "../../fields/table.ts";
import type { SettingName } from "../../fields/types.ts";

/** The settings as typed: numbers and texts as strings, so a half-typed value stays on screen. */
export interface SettingsDraft {
  unique: boolean;
  min: string;
  max: string;
  minLength: string;
  maxLength: string;
  pattern: string;
  patternMessage: string;
  help: string;
  slugFrom: string;
  /** The default value as typed: a number, a date, `true`/`false`, text, or JSON for a mixed value. */
  default: string;
}

/** A field's settings as the form starts them. */
export function settingsOf(f: Field | undefined): SettingsDraft {
  const s = (v: number | null | undefined) => (typeof v === "number" ? String(v) : "");
  return {
    unique: f?.unique ?? false,
    min: s(f?.min),
    max: s(f?.max),
    minLength: s(f?.minLength),
    maxLength: s(f?.maxLength),
    pattern: f?.pattern ?? "",
    patternMessage: f?.patternMessage ?? "",
    help: f?.help ?? "",
    slugFrom: f?.slug?.from ?? "",
    default:
      f?.default === undefined || f.default === null
        ? ""
        : typeof f.default === "string" && f.type !== "mixed"
          ? f.default
          : typeof f.default === "string"
            ? JSON.stringify(f.default)
            : typeof f.default === "object"
              ? JSON.stringify(f.default)
              : String(f.default),
  };
}

/**
 * The default as the body sends it, by kind: a number, a boolean, JSON for a mixed value (sent as
 * typed when it does not parse, so the server refuses it naming the setting), text otherwise.
 */
function defaultOf(v: string, type: FieldType): unknown {
  if (v.trim() === "") return null;
  if (type === "number") return Number(v);
  if (type === "true_false") return v === "true";
  if (type === "mixed") {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  return v;
}

/** The settings a field of this type takes. */
export function settingNames(type: FieldType): readonly SettingName[] {
  return FIELD_KINDS[type].settings;
}

/**
 * What the body says of the settings: the ones the kind takes, and on an edit `null` (false for
 * unique) to clear the rest, so a setting kept from before a change of type is not refused.
 */
export function settingsBody(d: SettingsDraft, type: FieldType, editing: boolean): Record<string, unknown> {
  const names = new Set(settingNames(type));
  const out: Record<string, unknown> = {};
  if (editing) for (const n of ["min", "max", "minLength", "maxLength", "pattern", "patternMessage", "help", "slug", "default"]) out[n] = null;
  if (editing) out.unique = false;
  const num = (v: string) => (v.trim() === "" ? null : Number(v));
  const text = (v: string) => (v.trim() === "" ? null : v);
  // `false` clears Unique, but is a value like any other for a yes/no field's default.
  const put = (name: string, v: unknown) => {
    if (v !== null && (v !== false || name === "default")) out[name] = v;
    else if (editing) out[name] = name === "unique" ? false : null;
  };
  if (names.has("unique")) put("unique", d.unique);
  if (names.has("min")) put("min", num(d.min));
  if (names.has("max")) put("max", num(d.max));
  if (names.has("minLength")) put("minLength", num(d.minLength));
  if (names.has("maxLength")) put("maxLength", num(d.maxLength));
  if (names.has("pattern")) {
    put("pattern", text(d.pattern));
    put("patternMessage", d.pattern.trim() ? text(d.patternMessage) : null);
  }
  if (names.has("default")) put("default", defaultOf(d.default, type));
  if (names.has("help")) put("help", text(d.help));
  if (names.has("slug")) put("slug", d.slugFrom ? { from: d.slugFrom } : null);
  return out;
}

function Input(p: { id: string; label: string; value: string; onChange(v: string): void; error: string | null; type?: string; hint?: string }) {
  const described = [p.hint ? `${p.id}-hint` : null, p.error ? `${p.id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={p.id}>{p.label}</label>
      <input
        id={p.id}
        type={p.type ?? "text"}
        value={p.value}
        onChange={(e) => p.onChange(e.target.value)}
        aria-describedby={described}
        aria-invalid={p.error ? true : undefined}
      />
      {p.hint && (
        <p className="hint" id={`${p.id}-hint`}>
          {p.hint}
        </p>
      )}
      {p.error && (
        <p className="error" id={`${p.id}-error`}>
          {p.error}
        </p>
      )}
    </div>
  );
}

/** The inputs; `texts` are the model's other text fields (a slug's possible sources); `at` finds a refusal. */
export function FieldSettings(p: {
  type: FieldType;
  list: boolean;
  value: SettingsDraft;
  onChange(d: SettingsDraft): void;
  texts: Field[];
  at(setting: string): string | null;
}) {
  const names = new Set(settingNames(p.type));
  const set = (k: keyof SettingsDraft) => (v: string | boolean) => p.onChange({ ...p.value, [k]: v });
  return (
    <fieldset className="form-stack field-settings">
      <legend>Rules</legend>
      {names.has("unique") && (
        <label>
          <input type="checkbox" checked={p.value.unique} onChange={(e) => set("unique")(e.target.checked)} /> Unique
        </label>
      )}
      {names.has("min") && (
        <div className="row">
          <Input id="field-min" type="number" label={p.list ? "Fewest items" : "Minimum"} value={p.value.min} onChange={set("min")} error={p.at(".min")} />
          <Input id="field-max" type="number" label={p.list ? "Most items" : "Maximum"} value={p.value.max} onChange={set("max")} error={p.at(".max")} />
        </div>
      )}
      {names.has("minLength") && (
        <div className="row">
          <Input id="field-min-length" type="number" label="Minimum length" value={p.value.minLength} onChange={set("minLength")} error={p.at(".minLength")} />
          <Input id="field-max-length" type="number" label="Maximum length" value={p.value.maxLength} onChange={set("maxLength")} error={p.at(".maxLength")} />
        </div>
      )}
      {names.has("pattern") && (
        <>
          <Input
            id="field-pattern"
            label="Pattern"
            value={p.value.pattern}
            onChange={set("pattern")}
            error={p.at(".pattern")}
            hint="A regular expression the value must match, such as ^[A-Z]{3}-\d{3}$."
          />
          {p.value.pattern.trim() !== "" && (
            <Input
              id="field-pattern-message"
              label="Pattern message"
              value={p.value.patternMessage}
              onChange={set("patternMessage")}
              error={p.at(".patternMessage")}
            />
          )}
        </>
      )}
      {names.has("slug") && (
        <div className="field">
          <label htmlFor="field-slug-from">Slug from</label>
          <select
            id="field-slug-from"
            value={p.value.slugFrom}
            onChange={(e) => set("slugFrom")(e.target.value)}
            aria-invalid={p.at(".slug") ? true : undefined}
          >
            <option value="">Not a slug</option>
            {p.texts.map((f) => (
              <option key={f.id} value={f.namespace}>
                {f.label ?? f.namespace}
              </option>
            ))}
          </select>
          {p.at(".slug") && <p className="error">{p.at(".slug")}</p>}
        </div>
      )}
      {names.has("default") && p.type === "true_false" && (
        <div className="field">
          <label htmlFor="field-default">Default value</label>
          <select
            id="field-default"
            value={p.value.default}
            onChange={(e) => set("default")(e.target.value)}
            aria-invalid={p.at(".default") ? true : undefined}
          >
            <option value="">None</option>
            <option value="true">Yes</option>
            <option value="false">No</option>
          </select>
          {p.at(".default") && <p className="error">{p.at(".default")}</p>}
        </div>
      )}
      {names.has("default") && p.type !== "true_false" && (
        <Input
          id="field-default"
          type={p.type === "number" ? "number" : p.type === "date" ? "date" : "text"}
          label="Default value"
          value={p.value.default}
          onChange={set("default")}
          error={p.at(".default")}
          hint={
            p.type === "mixed"
              ? 'Used when an entry is created without this field; JSON, such as {"size": 3}.'
              : "Used when an entry is created without this field."
          }
        />
      )}
      {names.has("help") && (
        <Input
          id="field-help"
          label="Help text"
          value={p.value.help}
          onChange={set("help")}
          error={p.at(".help")}
          hint="Shown under the input, up to 300 characters."
        />
      )}
    </fieldset>
  );
}
