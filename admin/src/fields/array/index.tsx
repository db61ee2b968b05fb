// An `array` field: a list of its item kind. Strings are tags; relations are chosen several at a
// time in the picker; every other kind is a list of rows with Add, Remove and reordering.
import type { FieldType } from "../../api/types.ts";
import { RelationInput } from "../relation/relation-input.tsx";
import type { CellProps, FieldKind, InputProps } from "../types.ts";
import { ListInput } from "./list-input.tsx";
import { TagsInput } from "./tags-input.tsx";

/** The kind of one item; the table is passed in to avoid an import cycle with table.ts. */
type ItemKinds = Record<Exclude<FieldType, "array">, FieldKind>;

const itemType = (p: { field: { arrayType: FieldType | null } }) => (p.field.arrayType ?? "string") as Exclude<FieldType, "array">;

/** The array kind over a table of item kinds. */
export function arrayKindOf(kinds: () => ItemKinds): FieldKind {
  return {
    Input(p: InputProps) {
      const t = itemType(p);
      if (t === "string") return <TagsInput {...p} />;
      if (t === "relation") return <RelationInput {...p} />;
      return <ListInput {...p} item={kinds()[t]} itemType={t} />;
    },
    Cell(p: CellProps) {
      const t = itemType(p);
      const items = Array.isArray(p.value) ? (p.value as unknown[]) : [];
      if (t === "relation") return kinds().relation.Cell(p);
      if (items.length === 0) return "—";
      const Item = kinds()[t].Cell;
      return (
        <>
          {items.map((v, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list in its stored order.
            <span key={i}>
              {i > 0 && ", "}
              <Item field={{ ...p.field, type: t, arrayType: null }} value={v} models={p.models} />
            </span>
          ))}
        </>
      );
    },
    settings: ["min", "max", "help"],
    empty: () => [],
    labelling: (f) => ((f.arrayType ?? "string") === "string" ? "for" : "group"),
  };
}
