// A GraphQL selection as the select (args.ts) that reads exactly it: model fields by namespace,
// system keys by their select names, relations expanded down to what the nested selections ask,
// a relation list's sort keys included so its order can be applied.
import { getNamedType, type FieldNode, type GraphQLField, type GraphQLObjectType } from "graphql";
import { collectSubfields } from "graphql/execution/collectFields.js";
import { getArgumentValues } from "graphql/execution/values.js";
import { fail } from "../errors.ts";
import { printSelect } from "../domain/reads/args.ts";
import type { SelectItem, SelectList } from "../domain/reads/grammar.ts";
import type { FieldInfo, ModelTypes } from "./schema.ts";
import type { RelationOrder } from "./sorts.ts";
import { systemName } from "./sorts.ts";
import type { TranslateContext } from "./translate.ts";

const fieldDef = (t: GraphQLObjectType, name: string) => t.getFields()[name] as GraphQLField<unknown, unknown> | undefined;

/** Collects the node selections under a connection's `edges { node }` and `nodes` (aliases included), and whether totalCount is asked. */
export function connectionParts(ctx: TranslateContext, conn: GraphQLObjectType, nodes: readonly FieldNode[]) {
  const s = ctx.built.schema;
  const byName = (fns: Iterable<readonly FieldNode[]>, name: string) => [...fns].flat().filter((n) => n.name.value === name);
  const parts = [...collectSubfields(s, ctx.fragments, ctx.variables, conn, nodes).values()];
  const nodeNodes = byName(parts, "nodes");
  const edges = byName(parts, "edges");
  if (edges.length) {
    const edgeType = getNamedType(fieldDef(conn, "edges")!.type) as GraphQLObjectType;
    nodeNodes.push(...byName(collectSubfields(s, ctx.fragments, ctx.variables, edgeType, edges).values(), "node"));
  }
  return { nodeNodes, totalCount: byName(parts, "totalCount").length > 0, rowCursors: edges.length > 0 || byName(parts, "pageInfo").length > 0 };
}

/**
 * The select of a model type for the given selections: system keys as `$name` when a customer
 * field holds the plain name, relations expanded, in the order REST select would list them.
 * `nestedAfter` says whether a nested connection may take `after` (only under a single entry).
 */
export function selectFor(ctx: TranslateContext, t: ModelTypes, nodes: readonly FieldNode[], nestedAfter: boolean): SelectList {
  return { all: false, items: selectItems(ctx, t, nodes, nestedAfter) };
}

/** A system key of a model as a select item: `$key` when a customer field holds the plain name. */
const systemItem = (rest: string): SelectItem =>
  rest.startsWith("$") ? { name: rest.slice(1), system: true, expand: null } : { name: rest, system: false, expand: null };

/** The printed form of an item (and its own locale), which says when two items are one. */
const itemKey = (i: SelectItem) => `${printSelect({ all: false, items: [i] })}\u0000${i.locale ?? ""}`;

/** A localized field's own `locale` argument (decisions.md 13), as its select item carries it. */
function ownLocale(def: GraphQLField<unknown, unknown>, fn: FieldNode, ctx: TranslateContext): string | undefined {
  if (!def.args.some((a) => a.name === "locale")) return undefined;
  const l = (getArgumentValues(def, fn, ctx.variables) as { locale?: string | null }).locale;
  return l == null ? undefined : l;
}

function selectItems(ctx: TranslateContext, t: ModelTypes, nodes: readonly FieldNode[], nestedAfter: boolean): SelectItem[] {
  const fields = collectSubfields(ctx.built.schema, ctx.fragments, ctx.variables, t.object, nodes);
  const items = new Map<string, SelectItem>();
  const relations = new Map<
    string,
    { info: FieldInfo & { kind: "relation" | "relationList" }; nodes: FieldNode[]; extra: SelectItem[]; locale: string | undefined }
  >();
  for (const [, fns] of fields) {
    const name = fns[0]!.name.value;
    if (name.startsWith("__")) continue;
    const def = fieldDef(t.object, name)!;
    const info = def.extensions.capa as FieldInfo;
    if (info.kind === "system") {
      if (info.key !== "id") items.set(name, systemItem(info.select));
      continue;
    }
    // A localized field read in a locale of its own is a select item of its own.
    const locale = ownLocale(def, fns[0]!, ctx);
    const key = `${name}\u0000${locale ?? ""}`;
    if (info.kind === "value") {
      items.set(key, { name: info.field.namespace, system: false, expand: null, ...(locale === undefined ? {} : { locale }) });
      continue;
    }
    let r = relations.get(key);
    if (!r) {
      r = { info, nodes: [], extra: [], locale };
      relations.set(key, r);
    }
    if (info.kind === "relation") {
      r.nodes.push(...fns);
      continue;
    }
    const tt = ctx.built.byId.get(info.target.model.id)!;
    for (const fn of fns) {
      const args = getArgumentValues(def, fn, ctx.variables) as { after?: string | null; sort?: RelationOrder | null };
      if (args.after != null && !nestedAfter) {
        fail("invalid_parameter", {
          message: `after on the nested connection ${name} works under a single entry only.`,
          param: "after",
          hint: "Page a relation list under <single>(id:), entry(id:) or node(id:).",
        });
      }
      if (args.sort) r.extra.push(args.sort.field ? { name: args.sort.field, system: false, expand: null } : systemItem(args.sort.select));
      r.nodes.push(...connectionParts(ctx, tt.relationConnection, [fn]).nodeNodes);
    }
  }
  for (const [key, r] of relations) {
    const target = ctx.built.byId.get(r.info.target.model.id)!;
    // Under a relation list there are several parents again, so nested after is refused there.
    const sub = new Map<string, SelectItem>();
    for (const x of [...selectItems(ctx, target, r.nodes, nestedAfter && r.info.kind === "relation"), ...r.extra])
      if (!sub.has(itemKey(x))) sub.set(itemKey(x), x);
    const expand = { all: false, items: [...sub.values()] };
    items.set(key, { name: r.info.field.namespace, system: false, expand, ...(r.locale === undefined ? {} : { locale: r.locale }) });
  }
  return items.size ? [...items.values()] : [systemItem(systemName(t.names.model, "id"))];
}
