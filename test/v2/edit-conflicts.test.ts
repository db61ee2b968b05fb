// Edit conflicts (decisions.md section 3): PATCH and publish take `If-Match: <version number>`;
// when the entry's latest version differs the answer is 409 version_conflict with `current` and
// nothing is written. Restoring an earlier version makes it the next draft.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";

let h: Harness;
let token: string;
let id: string;
const entry = async () => (await h.json("GET", `/v2/model-instances/${id}`, { token })).body;
const versions = async () => (await h.json("GET", `/v2/model-instances/${id}/versions`, { token })).body.data as { id: string; number: number }[];

beforeAll(async () => {
  h = startApp();
  ({ token } = await withOwner(h));
  await h.json("POST", "/v2/models", { token, body: { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] } });
  id = (await h.json("POST", "/v2/model-instances", { token, body: { model: "post", data: { title: "One" } } })).body.id;
});
afterAll(() => h.close());

describe("If-Match", () => {
  test("a save based on the latest version is written", async () => {
    const r = await h.json("PATCH", `/v2/model-instances/${id}`, { token, headers: { "if-match": "1" }, body: { data: { title: "Two" } } });
    expect([r.status, r.body.version, r.body.draft.data.title]).toEqual([200, 2, "Two"]);
    const quoted = await h.json("PATCH", `/v2/model-instances/${id}`, { token, headers: { "if-match": '"2"' }, body: { data: { title: "Three" } } });
    expect([quoted.status, quoted.body.version]).toEqual([200, 3]);
  });

  test("a save based on an older version is 409 version_conflict with the current version; nothing is written", async () => {
    const r = await h.json("PATCH", `/v2/model-instances/${id}`, { token, headers: { "if-match": "1" }, body: { data: { title: "Stale" } } });
    expect([r.status, r.body]).toEqual([409, { error: "The entry is at version 3; your edit was based on version 1.", code: "version_conflict", current: 3 }]);
    expect((await entry()).draft.data.title).toBe("Three");
    expect((await versions()).length).toBe(3);
  });

  test("publish with a stale If-Match is refused and publishes nothing; with the latest it publishes", async () => {
    const r = await h.json("POST", `/v2/model-instances/${id}/publish`, { token, headers: { "if-match": "2" } });
    expect([r.status, r.body]).toEqual([409, { error: "The entry is at version 3; your edit was based on version 2.", code: "version_conflict", current: 3 }]);
    expect((await entry()).status).toBe("draft");
    const ok = await h.json("POST", `/v2/model-instances/${id}/publish`, { token, headers: { "if-match": "3" } });
    expect([ok.status, ok.body.status, ok.body.publishedVersion]).toEqual([200, "published", 3]);
  });

  test("a malformed If-Match is 400 naming the header; without one the last write wins", async () => {
    const bad = await h.json("PATCH", `/v2/model-instances/${id}`, { token, headers: { "if-match": "latest" }, body: { data: { title: "x" } } });
    expect([bad.status, bad.body]).toEqual([
      400,
      { error: "If-Match must be the entry's version number you edited, e.g. If-Match: 3", code: "invalid_body", field: "If-Match" },
    ]);
    const free = await h.json("PATCH", `/v2/model-instances/${id}`, { token, body: { data: { title: "Four" } } });
    expect([free.status, free.body.version]).toEqual([200, 4]);
  });
});

describe("restore a version", () => {
  test("an earlier version becomes the next draft; the published copy is untouched", async () => {
    const v1 = (await versions()).find((v) => v.number === 1)!;
    const r = await h.json("POST", `/v2/model-instances/${id}/versions/${v1.id}/restore`, { token, headers: { "if-match": "4" } });
    expect([r.status, r.body.version, r.body.draft.data.title, r.body.status, r.body.published.data.title]).toEqual([200, 5, "One", "changed", "Three"]);
    const stale = await h.json("POST", `/v2/model-instances/${id}/versions/${v1.id}/restore`, { token, headers: { "if-match": "4" } });
    expect([stale.status, stale.body.code, stale.body.current]).toEqual([409, "version_conflict", 5]);
    const missing = await h.json("POST", `/v2/model-instances/${id}/versions/${crypto.randomUUID()}/restore`, { token });
    expect([missing.status, missing.body]).toEqual([404, { error: "No such version of this entry.", code: "not_found", field: "versionId" }]);
    expect((await versions()).length).toBe(5);
  });
});
