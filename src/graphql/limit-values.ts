// interface.md, "Limits: GraphQL": the values, apart from the checks (limits.ts) so that code which
// must not load graphql-js (the guard's refusals of /api/graphql before routing) can state them.
export const LIMITS = {
  documentBytes: 32_768,
  variablesBytes: 32_768,
  bodyBytes: 65_536,
  urlBytes: 8_192,
  nesting: 128,
  depth: 12,
  rootFirstMax: 200,
  nestedFirstMax: 1000,
  ids: 100,
  entryRootFields: 10,
  sortValues: 3,
  budget: 5000,
  /** What an unwritten nested `first` counts in the budget, for each entry above it. */
  nestedBudgetFirst: 10,
};
