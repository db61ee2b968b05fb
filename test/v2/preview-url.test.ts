// A model's preview URL template (issue 13 item 8): set on create or PATCH, shown on the model
// record, checked to be an http(s) URL with {word} placeholders; the admin app fills it with a
// fresh preview token.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";

let h: Harness;
let token: string;
beforeAll(async () => {
  h = startApp();
  ({ token } = await withOwner(h));
});
afterAll(() => h.close());

describe("previewUrl", () => {
  test("is null by default, set on create and PATCH, cleared with null; each change is a model version", async () => {
    const made = await h.json("POST", "/v2/models", { token, body: { name: "Post", namespace: "post", fields: [{ namespace: "slug", type: "string" }] } });
    expect([made.status, made.body.previewUrl]).toEqual([201, null]);
    const url = "https://site.example/blog/{slug}?preview={token}";
    const set = await h.json("PATCH", "/v2/models/post", { token, body: { previewUrl: url } });
    expect([set.status, set.body.previewUrl, set.body.version]).toEqual([200, url, 2]);
    expect((await h.json("GET", "/v2/models/post", { token })).body.previewUrl).toBe(url);
    const cleared = await h.json("PATCH", "/v2/models/post", { token, body: { previewUrl: null } });
    expect([cleared.body.previewUrl, cleared.body.version]).toEqual([null, 3]);
    const withIt = await h.json("POST", "/v2/models", { token, body: { name: "Page", namespace: "page", previewUrl: "http://localhost:4321/{id}?t={token}" } });
    expect(withIt.body.previewUrl).toBe("http://localhost:4321/{id}?t={token}");
  });

  test("anything but an http(s) URL with {word} placeholders is refused naming previewUrl; nothing changes", async () => {
    const message = "previewUrl must be an http(s) URL with {token}, {id}, {model} or {<field>} placeholders, or null";
    for (const previewUrl of [
      "javascript:alert(1)",
      "/relative/{id}",
      "https://x.example/{unclosed",
      "https://x.example/{a b}",
      5,
      "",
      `https://x.example/${"a".repeat(2048)}`,
    ]) {
      const r = await h.json("PATCH", "/v2/models/post", { token, body: { previewUrl } });
      expect([r.status, r.body]).toEqual([400, { error: message, code: "invalid_body", field: "previewUrl" }]);
    }
    expect((await h.json("GET", "/v2/models/post", { token })).body).toMatchObject({ previewUrl: null, version: 3 });
  });
});
