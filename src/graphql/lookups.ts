// The root fields that look ids up (entry, node, nodes): which model an id belongs to is read
// from the project first (one statement), then each model's entries are read as REST would, and
// the entries come back tagged with their type name for the Node and Entry interfaces.
import type { FieldNode } from "graphql";
import { fail } from "../errors.ts";
import { isUuid } from "../domain/models/fields.ts";
import { LIMITS } from "./limit-values.ts";
import { dataOf } from "./rest-read.ts";
import type { ModelTypes } from "./schema.ts";
import { selectFor } from "./select.ts";
import { systemName } from "./sorts.ts";
import type { RootPlan, TranslateContext } from "./translate.ts";
import type { ListArgs } from "../domain/reads/args.ts";
import { TYPE_NAME } from "./types.ts";

type Obj = Record<string, unknown>;

/** An entry id as sent, lower-cased, or 400 invalid_parameter naming `param`. */
export function uuidOrFail(id: unknown, param: string): string {
  if (!isUuid(id))
    fail("invalid_parameter", { message: "Entry ids are UUIDs.", param, hint: "Entry ids are UUIDs, e.g. 0192f2c4-7d3a-7b6e-9a1c-2f4b5c6d7e8f." });
  return id.toLowerCase();
}

/** Tags a root-level entry with its type name, for Node and Entry. */
function tagged(o: unknown, typeName: string): unknown {
  if (o && typeof o === "object") (o as Record<symbol, string>)[TYPE_NAME] = typeName;
  return o;
}

/** The exposed model types of entries by id (one statement). */
function typesOf(ctx: TranslateContext, ids: string[]): Map<string, ModelTypes> {
  const rows = ctx.h.sqlite.query("SELECT id, model_id FROM entries WHERE id IN (SELECT value FROM json_each(?))").all(JSON.stringify(ids)) as {
    id: string;
    model_id: string;
  }[];
  const out = new Map<string, ModelTypes>();
  for (const r of rows) {
    const t = ctx.built.byId.get(r.model_id);
    if (t) out.set(r.id, t);
  }
  return out;
}

/** `entry(id:)` and `node(id:)`: the entry in its own model's read (in the locale asked for). */
export function planById(ctx: TranslateContext, id: string, nodes: readonly FieldNode[], loc: Pick<ListArgs, "locale" | "fallbackLocale">): RootPlan {
  const t = typesOf(ctx, [id]).get(id);
  // An id of no entry, or of a model this schema does not expose, answers null with no error.
  if (!t) return { reads: [], finish: () => null };
  return {
    reads: [{ ns: t.names.model.namespace, args: { kind: "item", id, select: selectFor(ctx, t, nodes, true), ...loc } }],
    finish([o]) {
      if (!o!.ok && o!.error.code === "entry_not_found") return null;
      return tagged(dataOf(o!), t.names.type);
    },
  };
}

/** `nodes(ids:)`: one read per model, the entries back in the order of the ids. */
export function planNodes(ctx: TranslateContext, raw: string[], nodes: readonly FieldNode[], loc: Pick<ListArgs, "locale" | "fallbackLocale">): RootPlan {
  // interface.md: `nodes` is nullable, and when its read fails it is null with the error at its
  // path while the other root fields keep their data; too many ids is such a failure.
  if (raw.length > LIMITS.ids) {
    fail("invalid_parameter", {
      message: `nodes takes at most ${LIMITS.ids} ids; got ${raw.length}.`,
      param: "ids",
      hint: `Send at most ${LIMITS.ids} ids per nodes field.`,
    });
  }
  const ids = raw.map((x) => uuidOrFail(x, "ids"));
  const types = typesOf(ctx, [...new Set(ids)]);
  // One read per model the ids belong to; an id sent twice is read once.
  const groups = new Map<ModelTypes, string[]>();
  for (const [id, t] of types) groups.set(t, [...(groups.get(t) ?? []), id]);
  const order = [...groups.entries()];
  return {
    reads: order.map(([t, group]) => ({
      ns: t.names.model.namespace,
      args: {
        kind: "list" as const,
        select: selectFor(ctx, t, nodes, false),
        where: { value: { $id: { in: group } } },
        sort: null,
        limit: group.length,
        count: false,
        after: null,
        before: null,
        ...loc,
      },
    })),
    finish(outcomes) {
      const found = new Map<string, Obj>();
      outcomes.forEach((o, i) => {
        const [t] = order[i]!;
        const idKey = systemName(t.names.model, "id");
        for (const row of dataOf(o) as Obj[]) found.set(row[idKey] as string, tagged(row, t.names.type) as Obj);
      });
      return ids.map((id) => found.get(id) ?? null);
    },
  };
}
