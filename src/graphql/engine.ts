// What the GraphQL routes use, as one module that src/http/api/graphql.ts loads on the first
// GraphQL request: graphql-js and the schema builder cost an idle server about 10 MB of RSS
// (docs/performance.md, "Idle memory") that a site reading only REST never needs.
export { runGraphql } from "./execute.ts";
export { checkNesting, checkSize, LIMITS } from "./limits.ts";
export { SchemaCache } from "./schema-cache.ts";
