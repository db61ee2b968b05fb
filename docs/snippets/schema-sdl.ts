// The schema a key sees, as SDL, for GraphQL codegen (graphql-codegen, gql.tada, ...): one
// introspection query, printed. Run it at build time and point the codegen at the file.
import { buildClientSchema, getIntrospectionQuery, printSchema } from "graphql";

export async function schemaSdl(api: string, key: string): Promise<string> {
  const res = await fetch(`${api}/api/graphql`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ query: getIntrospectionQuery() }),
  });
  const { data } = await res.json();
  return printSchema(buildClientSchema(data));
}
