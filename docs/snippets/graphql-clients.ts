// GraphQL clients: Apollo Client and urql, each sending the key in x-api-key. Both ask for
// application/graphql-response+json, so a refused query reaches them as GraphQL errors.
import { ApolloClient, HttpLink, InMemoryCache, gql } from "@apollo/client";
import { Client, cacheExchange, fetchExchange } from "@urql/core";

export function apolloClient(api: string, key: string) {
  return new ApolloClient({
    link: new HttpLink({ uri: `${api}/api/graphql`, headers: { "x-api-key": key } }),
    cache: new InMemoryCache({ possibleTypes: { Entry: ["Post"], Node: ["Post"] } }),
  });
}

export const POSTS = gql`
  query Posts($first: Int) {
    post(first: $first, sort: [title_ASC]) {
      nodes { id title slug }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

export function urqlClient(api: string, key: string) {
  return new Client({
    url: `${api}/api/graphql`,
    exchanges: [cacheExchange, fetchExchange],
    fetchOptions: { headers: { "x-api-key": key } },
    // GET for queries: a production key's GET answers are cacheable, by Capa and by a CDN.
    preferGetMethod: true,
  });
}
