// The work done once and cached, not per request: a document is parsed and validated once per
// schema (Built.documents), and an operation with one set of variables is measured and
// translated once per document (Prepared.plans), since all of it depends only on the schema,
// the document and the variables. Root fields that look ids up (entry, node, nodes) are left
// for each request.
import {
  GraphQLError,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type OperationDefinitionNode,
} from "graphql";
import { LRUCache } from "lru-cache";
import { collectFields } from "graphql/execution/collectFields.js";
import { AppError, CATALOGUE, fail } from "../errors.ts";
import { LIMITS, type Measures } from "./limits.ts";
import type { Built, RootInfo } from "./schema.ts";
import { planRoot, type RootPlan, type TranslateContext } from "./translate.ts";
import { VALIDATION_HINT } from "./error-render.ts";
import type { GraphqlEnv } from "./execute.ts";
import { compileDirect, type Direct } from "./direct.ts";

const NAME_HINT = CATALOGUE.graphql_validation_failed.hint;

export interface Prepared {
  document: DocumentNode;
  /** Validation errors of the document against the schema (empty when valid). */
  errors: readonly GraphQLError[];
  /** Planned runs by operation name and variables. */
  plans: LRUCache<string, Planned>;
}

/** A root field of a planned run. */
export type PlannedRoot =
  | { key: string; kind: "version" | "me" }
  | { key: string; kind: "plan"; plan: RootPlan }
  | { key: string; kind: "error"; error: AppError }
  /** entry, node and nodes look their ids up, so they are planned per request. */
  | { key: string; kind: "lookup"; def: GraphQLField<unknown, unknown>; nodes: readonly FieldNode[] };

/**
 * What one operation with one set of variables asks for: measured and translated once, since
 * both depend only on the schema, the document and the variables.
 */
export interface Planned {
  op: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  measures: Measures;
  roots: PlannedRoot[];
  /** The operation compiled for the direct path (direct.ts), or null when graphql-js runs it. */
  direct: Direct | null;
}

/** Parses and validates a document once per schema. */
export function prepare(built: Built, query: string): Prepared {
  let p = built.documents.get(query) as Prepared | AppError | undefined;
  if (!p) {
    try {
      const document = parse(query, { maxTokens: LIMITS.documentBytes });
      p = { document, errors: validate(built.schema, document), plans: new LRUCache({ max: 32 }) };
    } catch (e) {
      if (!(e instanceof GraphQLError)) throw e;
      p = new AppError("graphql_validation_failed", { message: e.message, hint: VALIDATION_HINT });
    }
    built.documents.set(query, p);
  }
  if (p instanceof AppError) throw p;
  return p;
}

/** Picks the operation: several only when every one is named and operationName picks one. */
export function pickOperation(document: DocumentNode, name: string | null): OperationDefinitionNode {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const bad = (message: string, hint = NAME_HINT): never => fail("graphql_validation_failed", { message, hint });
  if (ops.length === 0) bad("The document has no operation.", VALIDATION_HINT);
  if (ops.length > 1 && ops.some((o) => !o.name)) bad(`The document has ${ops.length} operations and not every one is named.`);
  if (name !== null) {
    const op = ops.find((o) => o.name?.value === name);
    return op ?? bad(`The document has no operation named "${name}".`);
  }
  if (ops.length > 1) bad(`The document has ${ops.length} operations; pick one with operationName.`);
  return ops[0]!;
}

/** The fragment definitions of a document by name. */
export function fragmentsOf(document: DocumentNode): Record<string, FragmentDefinitionNode> {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  return fragments;
}

/** Translates each root field (those that look ids up are left for each request). */
export function plan(
  env: GraphqlEnv,
  op: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  measures: Measures,
): Planned {
  const { built } = env;
  const query = built.schema.getQueryType()!;
  const ctx: TranslateContext = { built, h: env.h, fragments, variables };
  const roots: PlannedRoot[] = [];
  for (const [key, nodes] of collectFields(built.schema, fragments, variables, query, op.selectionSet)) {
    const name = nodes[0]!.name.value;
    if (name.startsWith("__")) continue;
    const def = query.getFields()[name] as GraphQLField<unknown, unknown>;
    const info = def.extensions.capa as RootInfo;
    if (info.kind === "version" || info.kind === "me") roots.push({ key, kind: info.kind });
    else if (info.kind === "entry" || info.kind === "node" || info.kind === "nodes") roots.push({ key, kind: "lookup", def, nodes });
    else {
      try {
        roots.push({ key, kind: "plan", plan: planRoot(ctx, def, nodes) });
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        roots.push({ key, kind: "error", error: e });
      }
    }
  }
  return { op, fragments, variables, measures, roots, direct: compileDirect(built.schema, op, fragments, variables) };
}
