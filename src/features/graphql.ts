// GraphQL on /api/graphql.
import { graphqlRoutes } from "../http/api/graphql.ts";
import type { Feature } from "./feature.ts";

export const graphql: Feature = ({ s }) => ({ routes: graphqlRoutes(s) });
