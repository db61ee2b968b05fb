// One field of an entry form: the kit's labelled shell (ui/field.tsx) around the input its kind's
// folder provides (table.ts). Memoised, so typing in one field renders only that field.
import { memo, useCallback } from "react";
import { labelOf } from "../api/models.ts";
import type { Field as FieldDef, LayoutField, Model } from "../api/types.ts";
import { Field } from "../ui/field.tsx";
import { textOf } from "./pending-text.ts";
import { kindOf, labellingOf } from "./table.ts";

interface Props {
  field: FieldDef;
  width: string;
  display: LayoutField["display"];
  value: unknown;
  error: string | undefined;
  onChange(ns: string, v: unknown): void;
  models: Model[];
  projectId: string;
}

export const FormField = memo(function FormField({ field, width, display, value, error, onChange, models, projectId }: Props) {
  const kind = kindOf(field);
  const set = useCallback((v: unknown) => onChange(field.namespace, v), [onChange, field.namespace]);
  const bounded = kind.counts && (field.maxLength || field.minLength);
  return (
    <Field
      id={`f-${field.id}`}
      label={labelOf(field)}
      required={field.required}
      hint={field.help || undefined}
      error={error}
      count={bounded ? { length: textOf(value).length, min: field.minLength, max: field.maxLength } : null}
      labelling={labellingOf(field)}
      className={`w-${width}`}
    >
      {(a, labelId) => (
        <kind.Input
          field={field}
          value={value}
          onChange={set}
          id={a.id}
          labelId={labelId}
          describedBy={a["aria-describedby"]}
          invalid={!!error}
          models={models}
          projectId={projectId}
          display={display}
        />
      )}
    </Field>
  );
});
