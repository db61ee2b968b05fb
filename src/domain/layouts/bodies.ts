// The TypeBox model of an entry layout (interface.md, Entry layout) and of its PUT body. A
// refusal is `400 invalid_layout` with `path` naming the part to fix (`main[0].items[2].width`),
// measured from the layout. validate.ts adds what a shape cannot say: the limits across the
// document, part ids used once, each field placed once and a field of the model, `display` only
// on relation fields, `collapsed` only when `collapsible`.
import { Type } from "@sinclair/typebox";
import { DISPLAYS, MAX_DESCRIPTION, MAX_TITLE, WIDTHS } from "./limits.ts";

const PART_ID = "^[A-Za-z0-9_-]{1,64}$";
const LAYOUT = { code: "invalid_layout", key: "path" } as const;

const partId = Type.String({ pattern: PART_ID, error: "{field} must be 1 to 64 of a-z A-Z 0-9 _ -" });
const flag = Type.Optional(Type.Boolean({ error: "{field} must be true or false" }));

export const FieldItem = Type.Object(
  {
    t: Type.Literal("field", { error: '{field} must be "field"' }),
    id: partId,
    fieldId: Type.String({
      pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
      error: "{field} must be a field id (UUID)",
    }),
    width: Type.Optional(
      Type.Union([Type.Null(), ...WIDTHS.map((w) => Type.Literal(w))], { error: `{field} must be one of ${WIDTHS.join(", ")}`, description: "Default full." }),
    ),
    display: Type.Optional(
      Type.Union(
        DISPLAYS.map((d) => Type.Literal(d)),
        { error: `{field} must be one of ${DISPLAYS.join(", ")}`, description: "Relation fields only." },
      ),
    ),
  },
  {
    $id: "LayoutFieldItem",
    error: "{field} must be a field item object",
    additionalProperties: false,
    unknown: "{field} is not part of a layout part; allowed: t, id, fieldId, width, display",
  },
);

export const Card = Type.Object(
  {
    t: Type.Literal("card", { error: '{field} must be "card"' }),
    id: partId,
    title: Type.String({ maxLength: MAX_TITLE, pattern: "\\S", error: `{field} must be 1 to ${MAX_TITLE} characters` }),
    description: Type.Optional(
      Type.Union([Type.Null(), Type.String({ maxLength: MAX_DESCRIPTION })], {
        error: `{field} must be text of at most ${MAX_DESCRIPTION} characters, or null`,
      }),
    ),
    collapsible: flag,
    collapsed: flag,
    items: Type.Array(FieldItem, { error: "{field} must be a list of field items" }),
  },
  {
    $id: "LayoutCard",
    error: "{field} must be a card object",
    additionalProperties: false,
    unknown: "{field} is not part of a layout part; allowed: t, id, title, description, collapsible, collapsed, items",
  },
);

/** A layout document: at most 50 cards and 500 fields in all. */
export const LayoutDocument = Type.Object(
  {
    v: Type.Literal(1, { error: "v must be the number 1" }),
    main: Type.Array(Card, { error: "main must be a list of cards" }),
    aside: Type.Optional(Type.Array(Card, { error: "aside must be a list of cards" })),
  },
  {
    $id: "LayoutDocument",
    additionalProperties: false,
    unknown: "{field} is not part of a layout document; allowed: v, main, aside",
    refusal: { ...LAYOUT, root: true },
  },
);

/** PUT /v2/models/:id/layout: `{ layout }`, or `{ layout: null }` back to the plain editor. */
export const LayoutBody = Type.Object(
  {
    layout: Type.Union([Type.Null(), LayoutDocument], {
      error: "layout must be an object { v: 1, main: [...], aside: [...] } or null",
      missing: "The body must hold the layout key: { layout: {...} }, or { layout: null } to reset.",
      refusal: LAYOUT,
    }),
  },
  { $id: "LayoutBody", additionalProperties: false, unknown: "{field} is not part of a layout request; send { layout }" },
);

/** A field item as stored and answered (width filled in). */
const StoredFieldItem = Type.Object(
  {
    t: Type.Literal("field"),
    id: Type.String(),
    fieldId: Type.String(),
    width: Type.Union(WIDTHS.map((w) => Type.Literal(w))),
    display: Type.Optional(Type.Union(DISPLAYS.map((d) => Type.Literal(d)))),
  },
  { $id: "StoredLayoutFieldItem" },
);

/** A card as stored and answered (defaults filled in). */
const StoredCard = Type.Object(
  {
    t: Type.Literal("card"),
    id: Type.String(),
    title: Type.String(),
    description: Type.Union([Type.Null(), Type.String()]),
    collapsible: Type.Boolean(),
    collapsed: Type.Boolean(),
    items: Type.Array(StoredFieldItem),
  },
  { $id: "StoredLayoutCard" },
);

/** A model's layout as the model's record answers it: normalised (validate.ts), every default filled in. */
export const StoredLayout = Type.Object(
  { v: Type.Literal(1), main: Type.Array(StoredCard), aside: Type.Array(StoredCard) },
  { $id: "StoredLayout", description: "The entry layout, defaults filled in." },
);
