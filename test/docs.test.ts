// The per-code error pages under /docs/errors/<code>, generated from the catalogue (decisions.md
// section 1).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type Harness } from "./harness.ts";
import { CATALOGUE } from "../src/errors.ts";

describe("GET /docs/errors/:code", () => {
  let h: Harness;
  beforeAll(() => {
    h = startApp();
  });
  afterAll(() => h.close());

  const codes = Object.keys(CATALOGUE) as (keyof typeof CATALOGUE)[];
  test("the catalogue is not empty", () => {
    expect(codes.length).toBeGreaterThan(40);
  });

  for (const code of codes) {
    test(`${code}: 200 HTML with the code and its status`, async () => {
      const res = await h.req("GET", `/docs/errors/${code}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("text/html");
      const html = await res.text();
      expect(html).toStartWith("<!doctype html>");
      expect(html).toContain(`<h1>${code}</h1>`);
      expect(html).toContain(`<dt>Status</dt><dd>${CATALOGUE[code].status}</dd>`);
    });
  }

  for (const code of ["no_such_code", "NOT_FOUND", "Invalid credentials"]) {
    test(`an unknown code (${code}) is 404 route_not_found`, async () => {
      const r = await h.json("GET", `/docs/errors/${encodeURIComponent(code)}`);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe("route_not_found");
    });
  }

  // A name inherited from Object.prototype is not a code: docsPage checks own keys only.
  for (const code of ["constructor", "toString", "__proto__"]) {
    test(`an inherited property name (${code}) is 404`, async () => {
      const r = await h.json("GET", `/docs/errors/${code}`);
      expect(r.status).toBe(404);
    });
  }
});
