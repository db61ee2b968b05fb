// The fields of a model type (interface.md, GraphQL "Schema"): system fields, then customer
// fields, each with the resolver that reads it from the entries read's object. A relation list
// becomes a window (windows.ts); unresolved relations and files that the answer holds are named
// in extensions.missingReferences through the ExecContext.
import {
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLNullableType,
  type GraphQLOutputType,
} from "graphql";
import { itemType, MEDIA_TYPES, type FieldDef } from "../domain/models/fields.ts";
import type { SystemKey } from "../domain/reads/names.ts";
import { localeKey, MISSING_IDS } from "../domain/reads/render.ts";
import { D } from "./descriptions.ts";
import type { ExecContext } from "./execute.ts";
import type { ModelNames, Naming } from "./naming.ts";
import type { FieldInfo, ModelTypes } from "./schema.ts";
import { systemName } from "./sorts.ts";
import { DateTime, GraphQLBoolean, GraphQLFloat, JSONScalar, Media, systemFields } from "./types.ts";
import { relationWindow } from "./windows.ts";

const nn = <T extends GraphQLNullableType>(t: T) => new GraphQLNonNull(t);
const capa = <T>(info: T) => ({ capa: info });

/** The GraphQL output type of a customer field that is not an exposed relation. */
function valueType(f: FieldDef): GraphQLOutputType {
  const t = itemType(f);
  const one =
    t === "number"
      ? GraphQLFloat
      : t === "true_false"
        ? GraphQLBoolean
        : t === "date"
          ? DateTime
          : t === "relation"
            ? GraphQLID
            : MEDIA_TYPES.has(t)
              ? Media
              : t === "mixed"
                ? JSONScalar
                : GraphQLString;
  return f.type === "array" ? new GraphQLList(one) : one;
}

/** Adds the ids field `ns` of `src` could not resolve (noted by the read, render.ts) to the answer's missing. */
function noteMissing(src: Record<string, unknown>, ns: string, ctx: ExecContext): void {
  const ids = (src[MISSING_IDS] as Record<string, string[]> | undefined)?.[ns];
  if (ids) for (const id of ids) ctx.missing.add(id);
}

export function modelFields(
  mn: ModelNames,
  naming: Naming,
  types: (target: ModelNames) => ModelTypes,
  describe: (f: FieldDef) => string,
  locales = false,
): GraphQLFieldConfigMap<Record<string, unknown>, ExecContext> {
  const m = mn.model;
  const sys = systemFields() as GraphQLFieldConfigMap<Record<string, unknown>, ExecContext>;
  const out: GraphQLFieldConfigMap<Record<string, unknown>, ExecContext> = {};
  for (const [name, cfg] of Object.entries(sys)) {
    const key = (name.startsWith("_") ? name.slice(1) : name) as SystemKey;
    const rest = systemName(m, key);
    out[name] = { ...cfg, extensions: capa<FieldInfo>({ kind: "system", key, select: rest, out: rest }), resolve: (src) => src[rest] };
  }
  if (locales) {
    // `_locales` (decisions.md 13): REST `$locales`, which only a select that names it returns.
    const rest = systemName(m, "locales");
    out._locales = {
      type: nn(new GraphQLList(nn(GraphQLString))),
      description: D.sys._locales,
      extensions: capa<FieldInfo>({ kind: "system", key: "locales", select: "$locales", out: rest }),
      resolve: (src) => src[rest],
    };
  }
  for (const { field, name } of mn.fields) {
    const ns = field.namespace;
    // A localized field takes its own locale (decisions.md 13): its value then sits under localeKey (render.ts).
    const own = locales && field.localized ? { locale: { type: GraphQLString, description: D.args.fieldLocale } } : null;
    const keyOf = (args: unknown) => {
      const l = (args as { locale?: string | null } | undefined)?.locale;
      return own && l != null ? localeKey(l, ns) : ns;
    };
    const target = field.relation ? naming.byId.get(field.relation) : undefined;
    const description = describe(field);
    let cfg: GraphQLFieldConfig<Record<string, unknown>, ExecContext>;
    if (target && field.type === "array") {
      const tt = types(target);
      const idKey = systemName(target.model, "id");
      cfg = {
        type: nn(tt.relationConnection),
        description,
        args: {
          first: { type: GraphQLInt, description: D.args.nestedFirst },
          after: { type: GraphQLString, description: D.args.nestedAfter },
          sort: { type: tt.relationSort, description: D.args.nestedSort },
          ...own,
        },
        extensions: capa<FieldInfo>({ kind: "relationList", field, target }),
        resolve: (src, args, ctx: ExecContext) => {
          const w = relationWindow(src, keyOf(args), idKey, args as never);
          ctx.actual += w.nodes.length;
          for (const id of w.omitted) ctx.missing.add(id);
          return w;
        },
      };
    } else if (target) {
      cfg = {
        type: types(target).object,
        description,
        ...(own ? { args: own } : {}),
        extensions: capa<FieldInfo>({ kind: "relation", field, target }),
        resolve: (src, args, ctx: ExecContext) => {
          const key = keyOf(args);
          const v = src[key] ?? null;
          if (v !== null) ctx.actual++;
          else noteMissing(src, key, ctx);
          return v;
        },
      };
    } else if (MEDIA_TYPES.has(itemType(field))) {
      // A media value whose file was deleted reads null (or leaves a list) and is named.
      const resolve = (src: Record<string, unknown>, args: unknown, ctx: ExecContext) => {
        const key = keyOf(args);
        noteMissing(src, key, ctx);
        return src[key];
      };
      cfg = { type: valueType(field), description, ...(own ? { args: own } : {}), extensions: capa<FieldInfo>({ kind: "value", field }), resolve };
    } else {
      cfg = {
        type: valueType(field),
        description,
        ...(own ? { args: own } : {}),
        extensions: capa<FieldInfo>({ kind: "value", field }),
        resolve: (src, args) => src[keyOf(args)],
      };
    }
    out[name] = cfg;
  }
  return out;
}
