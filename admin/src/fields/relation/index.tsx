// A `relation` field (and a list of relations, which the array kind hands here whole): entries of
// the related model chosen in a dialog; a cell shows their titles.
import { currentProjectId } from "../../api/client.ts";
import type { CellProps, FieldKind } from "../types.ts";
import { RelatedTitle } from "./related-entry.tsx";
import { RelationInput } from "./relation-input.tsx";

function RelationCell({ field, value, models }: CellProps) {
  const target = models.find((m) => m.id === field.relation);
  const ids = Array.isArray(value) ? (value as string[]) : typeof value === "string" ? [value] : [];
  if (!target || ids.length === 0) return "—";
  return (
    <>
      {ids.map((id, i) => (
        <span key={id}>
          {i > 0 && ", "}
          <RelatedTitle id={id} target={target} projectId={currentProjectId() ?? ""} />
        </span>
      ))}
    </>
  );
}

export const relationKind: FieldKind = {
  Input: RelationInput,
  Cell: RelationCell,
  settings: ["help"],
  empty: () => null,
  labelling: "group",
};
