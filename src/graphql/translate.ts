// interface.md, "GraphQL behaviour": every root field becomes one `GET /api/entries/...` request.
// This file turns a root field (its arguments and selection) into that request's URL, and the
// read's answer into the field's value: a connection, an entry, or a list of entries. The
// selection becomes REST select in select.ts; the URL and the outcome back are rest-read.ts;
// the roots that look ids up (entry, node, nodes) are lookups.ts.
import { Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type ValueNode } from "graphql";
import { getArgumentValues } from "graphql/execution/values.js";
import { fail } from "../errors.ts";
import type { ProjectHandle } from "../storage/pool.ts";
import type { ReadOutcome } from "../domain/reads/job.ts";
import { toWhere } from "./filters.ts";
import { planById, planNodes, uuidOrFail } from "./lookups.ts";
import { dataOf, type RestRead } from "./rest-read.ts";
import type { ListArgs } from "../domain/reads/args.ts";
import type { SortTerm } from "../domain/reads/grammar.ts";
import type { Built, ModelTypes, RootInfo } from "./schema.ts";
import { connectionParts, selectFor } from "./select.ts";

/** Root connection `first` when it is not written, and what `before` alone reads. */
export const ROOT_FIRST = 25;

/** What a root field needs run, and how its value is made from the answers. */
export interface RootPlan {
  reads: RestRead[];
  finish(outcomes: ReadOutcome[]): unknown;
}

export interface TranslateContext {
  built: Built;
  h: ProjectHandle;
  fragments: Record<string, FragmentDefinitionNode>;
  /** Coerced variable values (a variable that was not sent is absent). */
  variables: Record<string, unknown>;
}

type Obj = Record<string, unknown>;

/** Throws invalid_filter_value when a variable inside the filter (not the whole filter) was not sent. */
function checkFilterVariables(node: ValueNode, vars: Record<string, unknown>, depth = 0): void {
  if (node.kind === Kind.VARIABLE) {
    if (depth > 0 && !(node.name.value in vars)) {
      fail("invalid_filter_value", {
        message: `The variable $${node.name.value} inside filter is not set.`,
        param: "filter",
        hint: "Send every variable used inside filter, or leave the whole filter out.",
      });
    }
    return;
  }
  if (node.kind === Kind.OBJECT) for (const f of node.fields) checkFilterVariables(f.value, vars, depth + 1);
  if (node.kind === Kind.LIST) for (const v of node.values) checkFilterVariables(v, vars, depth + 1);
}

/**
 * A root's `locale` and `fallbackLocales` as the read's `locale` and `fallbackLocale` (decisions.md
 * 13): an empty list turns fallback off. GraphQL reads one locale at a time: `*` (every locale
 * keyed by code) has no GraphQL type, so it is refused; the read checks the codes.
 */
export function localeArgs(args: Obj): Pick<ListArgs, "locale" | "fallbackLocale"> {
  const locale = (args.locale as string | null | undefined) ?? null;
  const list = args.fallbackLocales as string[] | null | undefined;
  if (locale === "*") {
    fail("invalid_parameter", {
      message: "GraphQL reads one locale at a time; every locale keyed by code is REST's locale=*.",
      param: "locale",
      hint: 'Example: posts(locale: "de", fallbackLocales: ["en"])',
    });
  }
  return { locale, fallbackLocale: list == null ? null : list.length === 0 ? "none" : list };
}

/** The plan of one root field (its nodes share one response key). */
export function planRoot(ctx: TranslateContext, field: GraphQLField<unknown, unknown>, nodes: readonly FieldNode[]): RootPlan {
  const info = field.extensions.capa as RootInfo;
  const args = getArgumentValues(field, nodes[0]!, ctx.variables);
  switch (info.kind) {
    case "list":
      return planList(ctx, ctx.built.byId.get(info.mn.model.id)!, args, nodes);
    case "single":
      return planSingle(ctx, ctx.built.byId.get(info.mn.model.id)!, args.id, nodes, localeArgs(args));
    case "entry":
    case "node":
      return planById(ctx, uuidOrFail(args.id, "id"), nodes, localeArgs(args));
    case "nodes":
      return planNodes(ctx, args.ids as string[], nodes, localeArgs(args));
    default:
      return { reads: [], finish: () => null };
  }
}

function planList(ctx: TranslateContext, t: ModelTypes, args: Obj, nodes: readonly FieldNode[]): RootPlan {
  const first = args.first as number | null | undefined;
  const last = args.last as number | null | undefined;
  const after = args.after as string | null | undefined;
  const before = args.before as string | null | undefined;
  if (first != null && before != null) {
    fail("invalid_parameter", {
      message: "first takes after, not before.",
      param: "before",
      hint: "Page forward with first and after, backward with last and before.",
    });
  }
  if (last != null && (first != null || after != null)) {
    fail("invalid_parameter", {
      message: `last cannot be sent with ${first != null ? "first" : "after"}.`,
      param: "last",
      hint: "Page forward with first and after, backward with last and before.",
    });
  }
  if (after != null && before != null) {
    fail("invalid_parameter", {
      message: "Send after or before, not both.",
      param: "before",
      hint: "Page forward with first and after, backward with last and before.",
    });
  }
  const backward = last != null || before != null;
  const { nodeNodes, totalCount, rowCursors } = connectionParts(ctx, t.connection, nodes);
  const filterArg = nodes[0]!.arguments?.find((a) => a.name.value === "filter");
  if (filterArg) checkFilterVariables(filterArg.value, ctx.variables);
  const sort = args.sort as SortTerm[] | null | undefined;
  const listArgs: ListArgs = {
    kind: "list",
    select: selectFor(ctx, t, nodeNodes, false),
    where: args.filter != null ? { value: toWhere(t.names, ctx.built.naming, args.filter as Obj) } : null,
    sort: sort?.length ? sort : null,
    limit: ((backward ? last : first) ?? ROOT_FIRST) as number,
    count: totalCount,
    after: backward ? null : (after ?? null),
    before: backward ? (before ?? "end") : null,
    ...localeArgs(args),
  };
  const read: RestRead = { ns: t.names.model.namespace, args: listArgs, rowCursors };
  return {
    reads: [read],
    finish([o]) {
      const rows = dataOf(o!, backward) as Obj[];
      const r = o as Extract<ReadOutcome, { ok: true }>;
      const cursors = r.cursors ?? [];
      const page = r.page!;
      const edges = rows.map((node, i) => ({ cursor: cursors[i]!, node }));
      const hasNextPage = page.next !== null;
      const hasPreviousPage = page.prev !== null;
      return {
        edges,
        nodes: rows,
        totalCount: r.count,
        pageInfo: {
          hasNextPage,
          hasPreviousPage,
          startCursor: cursors[0] ?? null,
          endCursor: hasNextPage ? page.next : (cursors[cursors.length - 1] ?? null),
        },
      };
    },
  };
}

function planSingle(
  ctx: TranslateContext,
  t: ModelTypes,
  id: unknown,
  nodes: readonly FieldNode[],
  loc: Pick<ListArgs, "locale" | "fallbackLocale">,
): RootPlan {
  const ns = t.names.model.namespace;
  const select = selectFor(ctx, t, nodes, true);
  if (id == null) {
    // A single-entry model without id: its one entry (REST limit=1).
    const args: ListArgs = { kind: "list", select, where: null, sort: null, limit: 1, count: false, after: null, before: null, ...loc };
    return { reads: [{ ns, args }], finish: ([o]) => (dataOf(o!) as Obj[])[0] ?? null };
  }
  return {
    reads: [{ ns, args: { kind: "item", id: String(id), select, ...loc } }],
    finish([o]) {
      if (!o!.ok && o!.error.code === "entry_not_found") return null;
      return dataOf(o!);
    },
  };
}
