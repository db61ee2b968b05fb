// Bad input on /v2: each refusal is one clear error naming what to fix, and nothing is written.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";

const MB = 1024 * 1024;

describe("bad input on the management routes", () => {
  let h: Harness;
  let token: string;
  let entryId: string;
  beforeAll(async () => {
    h = startApp();
    ({ token } = await withOwner(h));
    await h.json("POST", "/v2/models", { token, body: { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] } });
    entryId = (await h.json("POST", "/v2/model-instances", { token, body: { model: "post", data: { title: "Kept" } } })).body.id;
  });
  afterAll(() => h.close());

  /** What the project holds, to show a refused request wrote nothing. */
  const snapshot = async () => ({
    projects: (await h.json("GET", "/v2/projects", { token })).body,
    models: (await h.json("GET", "/v2/models", { token })).body,
    entries: (await h.json("GET", "/v2/model-instances", { token })).body,
    versions: (await h.json("GET", `/v2/model-instances/${entryId}/versions`, { token })).body,
  });

  const writes: [string, () => string][] = [
    ["POST", () => "/v2/projects"],
    ["POST", () => "/v2/models"],
    ["PATCH", () => "/v2/models/post"],
    ["POST", () => "/v2/model-instances"],
    ["PATCH", () => `/v2/model-instances/${entryId}`],
  ];

  const malformed: [string, BodyInit, string][] = [
    ["truncated JSON", '{"name": "x"', "The request body is not valid JSON."],
    ["a bare word", "hello", "The request body is not valid JSON."],
    ["invalid UTF-8", new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), "The request body is not valid JSON."],
    ["a JSON array", '[{"name":"x","namespace":"x"}]', "The request body must be a JSON object."],
    ["JSON null", "null", "The request body must be a JSON object."],
    ["a JSON string", '"x"', "The request body must be a JSON object."],
    ["a JSON number", "5", "The request body must be a JSON object."],
  ];
  for (const [name, raw, message] of malformed) {
    test(`${name}: 400 invalid_json on every write, nothing written`, async () => {
      const before = await snapshot();
      for (const [method, path] of writes) {
        const r = await h.json(method, path(), { token, raw, headers: { "content-type": "application/json" } });
        expect([method, path(), r.status, r.body]).toEqual([method, path(), 400, { error: message, code: "invalid_json" }]);
      }
      expect(await snapshot()).toEqual(before);
    });
  }

  test("JSON sent without a JSON content type is still read", async () => {
    const r = await h.json("POST", "/v2/models", {
      token,
      raw: JSON.stringify({ name: "Plain", namespace: "plain" }),
      headers: { "content-type": "text/plain" },
    });
    expect(r.status).toBe(201);
    expect(r.body.namespace).toBe("plain");
    expect((await h.json("DELETE", "/v2/models/plain", { token, body: { namespace: "plain" } })).status).toBe(204);
  });

  const wrongTypes: [string, string, () => string, unknown, string][] = [
    ["project name a number", "POST", () => "/v2/projects", { name: 5 }, "name"],
    ["project slug a list", "POST", () => "/v2/projects", { name: "P", slug: ["a"] }, "slug"],
    ["model name missing", "POST", () => "/v2/models", { namespace: "m" }, "name"],
    ["model name a number", "POST", () => "/v2/models", { name: 1, namespace: "m" }, "name"],
    ["model description a number", "POST", () => "/v2/models", { name: "M", namespace: "m", description: 3 }, "description"],
    ["singleEntry a string", "POST", () => "/v2/models", { name: "M", namespace: "m", singleEntry: "yes" }, "singleEntry"],
    ["embedByDefault a number", "POST", () => "/v2/models", { name: "M", namespace: "m", embedByDefault: 1 }, "embedByDefault"],
    ["fields an object", "POST", () => "/v2/models", { name: "M", namespace: "m", fields: {} }, "fields"],
    ["removeIds a string", "PATCH", () => "/v2/models/post", { removeIds: "x" }, "removeIds"],
    ["editFields a string", "PATCH", () => "/v2/models/post", { editFields: "x" }, "editFields"],
    ["singleEntry a string on edit", "PATCH", () => "/v2/models/post", { singleEntry: "no" }, "singleEntry"],
    ["entry model a number", "POST", () => "/v2/model-instances", { model: 5, data: {} }, "model"],
    ["entry model missing", "POST", () => "/v2/model-instances", { data: {} }, "model"],
    ["entry data a string", "POST", () => "/v2/model-instances", { model: "post", data: "title=x" }, "data"],
    ["entry data a list", "PATCH", () => `/v2/model-instances/${entryId}`, { data: [] }, "data"],
    ["entry title a number", "PATCH", () => `/v2/model-instances/${entryId}`, { data: { title: 3 } }, "data.title"],
    ["entry tags a string", "POST", () => "/v2/model-instances", { model: "post", tags: "a,b" }, "tags"],
    ["member role a number", "POST", () => "/v2/projects/PID/members", { email: "m@example.com", role: 1 }, "role"],
    ["member e-mail a number", "POST", () => "/v2/projects/PID/members", { email: 1, role: "viewer" }, "email"],
    ["current projectId a number", "PUT", () => "/v2/projects/current", { projectId: 1 }, "projectId"],
  ];
  for (const [name, method, path, body, field] of wrongTypes) {
    test(`wrong type: ${name} -> 400 naming ${field}`, async () => {
      const pid = (await h.json("GET", "/v2/projects", { token })).body.data[0].id;
      const before = await snapshot();
      const r = await h.json(method, path().replace("PID", pid), { token, body });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "invalid_body", field });
      expect(r.body.error).toContain(field);
      expect(await snapshot()).toEqual(before);
    });
  }

  const unknown: [string, string, () => string, unknown, string | undefined][] = [
    ["entry of an unknown model", "POST", () => "/v2/model-instances", { model: "ghost", data: {} }, "model"],
    ["list of an unknown model", "GET", () => "/v2/model-instances?model=ghost", undefined, "model"],
    ["read an unknown model", "GET", () => "/v2/models/ghost", undefined, "id"],
    ["edit an unknown model", "PATCH", () => "/v2/models/ghost", { name: "x" }, "id"],
    ["delete an unknown model", "DELETE", () => "/v2/models/ghost", { namespace: "ghost" }, "id"],
    ["read an unknown entry", "GET", () => `/v2/model-instances/${crypto.randomUUID()}`, undefined, undefined],
    ["edit an unknown entry", "PATCH", () => `/v2/model-instances/${crypto.randomUUID()}`, { data: {} }, undefined],
    ["publish an unknown entry", "POST", () => `/v2/model-instances/${crypto.randomUUID()}/publish`, {}, undefined],
    ["delete an unknown entry", "DELETE", () => `/v2/model-instances/${crypto.randomUUID()}`, undefined, undefined],
    ["read an entry by a non-id", "GET", () => "/v2/model-instances/first-post", undefined, "id"],
  ];
  for (const [name, method, path, body, field] of unknown) {
    test(`unknown: ${name} -> 404`, async () => {
      const before = await snapshot();
      const r = await h.json(method, path(), { token, body });
      expect(r.status).toBe(404);
      expect(r.body.code).toBe("not_found");
      expect(r.body.field).toBe(field);
      expect(await snapshot()).toEqual(before);
    });
  }

  test("an unknown /v2 route is 404 route_not_found", async () => {
    const r = await h.json("GET", "/v2/nothing-here", { token });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("route_not_found");
  });

  const big = JSON.stringify({ name: "Big", namespace: "big", description: "x".repeat(MB) });
  test("a body over 1 MB with a Content-Length: 413 payload_too_large, nothing written", async () => {
    const before = await snapshot();
    for (const [method, path] of writes) {
      const r = await h.json(method, path(), { token, raw: big, headers: { "content-type": "application/json", "content-length": String(big.length) } });
      expect([method, r.status, r.body.code]).toEqual([method, 413, "payload_too_large"]);
    }
    expect(await snapshot()).toEqual(before);
  });

  test("a body over 1 MB sent as a stream with no Content-Length: 413 payload_too_large", async () => {
    const before = await snapshot();
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 64 * 1024) c.enqueue(bytes.slice(i, i + 64 * 1024));
        c.close();
      },
    });
    const r = await h.json("POST", "/v2/models", { token, raw: stream, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: "The request body is larger than 1 MB.", code: "payload_too_large" });
    expect(await snapshot()).toEqual(before);
  });

  test("a body just under 1 MB is read", async () => {
    const body = JSON.stringify({ model: "post", data: { title: "t".repeat(1_000_000) } });
    expect(body.length).toBeLessThan(MB);
    const r = await h.json("POST", "/v2/model-instances", { token, raw: body });
    expect(r.status).toBe(201);
    expect((await h.json("DELETE", `/v2/model-instances/${r.body.id}`, { token })).status).toBe(204);
  });

  const limits: [string, string, () => string, unknown, string][] = [
    ["model name of 121 characters", "POST", () => "/v2/models", { name: "m".repeat(121), namespace: "long" }, "name"],
    ["model description of 2001 characters", "POST", () => "/v2/models", { name: "M", namespace: "long", description: "d".repeat(2001) }, "description"],
    ["model namespace of 65 characters", "POST", () => "/v2/models", { name: "M", namespace: "n".repeat(65) }, "namespace"],
    ["project name of 121 characters", "POST", () => "/v2/projects", { name: "p".repeat(121) }, "name"],
    ["project rename to 121 characters", "PATCH", () => "/v2/projects/PID", { name: "p".repeat(121) }, "name"],
    ["member e-mail of 255 characters", "POST", () => "/v2/projects/PID/members", { email: `${"e".repeat(243)}@example.com`, role: "viewer" }, "email"],
    ["more than 50 tags", "POST", () => "/v2/model-instances", { model: "post", tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, "tags"],
    ["a text value over 1,000,000 characters", "POST", () => "/v2/model-instances", { model: "post", data: { title: "t".repeat(1_000_001) } }, "data.title"],
    ["a tag of 65 characters", "POST", () => "/v2/model-instances", { model: "post", tags: ["t".repeat(65)] }, "tags"],
  ];
  for (const [name, method, path, body, field] of limits) {
    test(`over a limit: ${name} -> 400 naming ${field}, nothing written`, async () => {
      const pid = (await h.json("GET", "/v2/projects", { token })).body.data[0].id;
      const before = await snapshot();
      const r = await h.json(method, path().replace("PID", pid), { token, body });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "invalid_body", field });
      expect(await snapshot()).toEqual(before);
      expect((await h.json("GET", `/v2/projects/${pid}/members`, { token })).body.data).toHaveLength(1);
    });
  }

  test("names at the limit are accepted", async () => {
    const m = await h.json("POST", "/v2/models", { token, body: { name: "m".repeat(120), namespace: "at-limit" } });
    expect(m.status).toBe(201);
    const p = await h.json("POST", "/v2/projects", { token, body: { name: "p".repeat(120) } });
    expect(p.status).toBe(201);
    expect(p.body.slug).toBe("p".repeat(40));
  });
});
