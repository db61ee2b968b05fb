// The Accept negotiation of GraphQL answers (decisions.md 12), as a table.
import { describe, expect, test } from "bun:test";
import { graphqlContentType } from "./graphql-media.ts";

const GR = "application/graphql-response+json";
const J = "application/json";

describe("graphqlContentType", () => {
  const cases: [string | null, string][] = [
    [null, J],
    ["", J],
    ["*/*", J],
    [J, J],
    [GR, GR],
    [`${GR}, ${J}`, GR],
    [`${J}, ${GR}`, J],
    [`${GR},${J};q=0.9`, GR],
    [`${J};q=0.9, ${GR}`, GR],
    [`${GR};q=0.5, ${J}`, J],
    [`${GR};q=0, */*`, J],
    [`${GR};q=0.8, application/*;q=0.5`, GR],
    [`${GR};q=0.4, application/*;q=0.5`, J],
    [`${GR};q=abc, ${J};q=0.9`, GR],
    [`${GR.toUpperCase()}; charset=utf-8`, GR],
    ["text/html, application/xhtml+xml", J],
    ["application/graphql-response+json-ish", J],
  ];
  for (const [accept, type] of cases) {
    test(`${JSON.stringify(accept)} -> ${type}`, () => expect(graphqlContentType(accept)).toBe(type));
  }
});
