// Issue 22, item 5: every event kind's `links` in one table. interface.md: `self` is the resource
// on the agent API, or absent; `public` only on instance.published. Each `self` is then read with
// a legacy agent key, so a link that names a route the agent mount does not have fails here.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runDueActions } from "../../src/domain/scheduling/runner.ts";
import { EVENT_TYPES } from "../../src/domain/webhooks/endpoint-checks.ts";
import type { Harness } from "../harness.ts";
import { png64 } from "../media/fixtures.ts";
import { createHook, deliver, publishPost, Receiver, webhookApp } from "./receiver.ts";

const API = "https://api.capa.test";
const CDN = "https://cdn.capa.test";
const MIN = 60_000;

let h: Harness;
let token: string;
let rx: Receiver;
let agentKey: string;
const sent = new Map<string, Record<string, any>>();
const ids: Record<string, string> = {};

beforeAll(async () => {
  const app = await webhookApp({ publicUrl: CDN, apiUrl: API });
  ({ h, token } = app);
  rx = new Receiver(app.c);
  const hook = await createHook(h, token, { url: rx.url("/all"), events: [...EVENT_TYPES] });
  agentKey = (await h.json("POST", "/v2/tenants/api-keys", { token, body: { permission: "agent", environment: "development" } })).body.apiKey;
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await h.json(method, path, { token, body });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  // model.published, then an entry's publish, unpublish and delete.
  ids.model = (
    await ok("POST", "/v2/models", {
      name: "Post",
      namespace: "post",
      fields: [
        { namespace: "title", type: "string", required: true },
        { namespace: "body", type: "markdown" },
      ],
    })
  ).id;
  ids.published = await publishPost(h, token, "Kept");
  ids.unpublished = await publishPost(h, token, "Withdrawn");
  await ok("POST", `/v2/model-instances/${ids.unpublished}/unpublish`);
  ids.deleted = (await ok("POST", "/v2/model-instances", { model: "post", data: { title: "Gone" } })).id;
  await ok("DELETE", `/v2/model-instances/${ids.deleted}`);
  // instance.restored: an entry deleted to the trash and brought back.
  ids.restored = (await ok("POST", "/v2/model-instances", { model: "post", data: { title: "Back" } })).id;
  await ok("DELETE", `/v2/model-instances/${ids.restored}`);
  await ok("POST", `/v2/trash/${ids.restored}/restore`);
  // media.uploaded, media.updated (alt), and media.deleted of a second file.
  const upload = async (name: string) => {
    const fd = new FormData();
    fd.append("file", new Blob([(await png64()) as BlobPart]), name);
    // The same picture as two files of the library, on purpose.
    return (await h.json("POST", "/v2/media?duplicate=true", { token, raw: fd })).body.id as string;
  };
  ids.media = await upload("kept.png");
  await ok("PATCH", `/v2/media/${ids.media}`, { alt: "A dot" });
  ids.mediaDeleted = await upload("gone.png");
  await ok("DELETE", `/v2/media/${ids.mediaDeleted}`);
  // schedule.failed: a publish of an entry missing a required title dies after its retries.
  const bad = (await ok("POST", "/v2/model-instances", { model: "post", data: {} })).id;
  const wallTime = new Date(h.clock.now() + 2 * MIN).toISOString().slice(0, 19);
  ids.action = (
    await ok("POST", "/v2/scheduled-actions", { action: "publish", timezone: "UTC", targets: [{ type: "instance", id: bad }], wallTime })
  ).actions[0].id;
  for (const m of [2, 1, 5, 15]) {
    h.clock.advance(m * MIN);
    runDueActions(h.capa.services, h.clock.now());
  }
  // model.deleted of a second model, and webhook.test.
  const other = (await ok("POST", "/v2/models", { name: "Other", namespace: "other", fields: [{ namespace: "title", type: "string" }] })).id;
  ids.other = other;
  await ok("DELETE", `/v2/models/${other}`, { namespace: "other" });
  await ok("POST", `/v2/webhooks/${hook.id}/test`);
  await deliver(h);
  for (const r of rx.on("/all")) {
    const p = JSON.parse(r.body);
    const key = p.type === "instance.published" ? `${p.type}:${p.data.instanceId}` : p.type === "model.published" ? `${p.type}:${p.data.modelId}` : p.type;
    if (!sent.has(key)) sent.set(key, p);
  }
});
afterAll(() => {
  rx.stop();
  h.close();
});

describe("links of every event kind", () => {
  // [event kind, the links it carries, status of GET self with an agent key]
  const rows: [string, () => Record<string, string>, number | null][] = [
    ["instance.published", () => ({ self: `${API}/v2/agent/model-instances/${ids.published}`, public: `${CDN}/api/entries/post/${ids.published}` }), 200],
    ["instance.unpublished", () => ({ self: `${API}/v2/agent/model-instances/${ids.unpublished}` }), 200],
    ["instance.deleted", () => ({}), null],
    ["instance.restored", () => ({ self: `${API}/v2/agent/model-instances/${ids.restored}` }), 200],
    ["model.published", () => ({ self: `${API}/v2/agent/models/${ids.model}` }), 200],
    ["model.deleted", () => ({}), null],
    ["media.uploaded", () => ({ self: `${API}/v2/agent/media/${ids.media}` }), 200],
    ["media.updated", () => ({ self: `${API}/v2/agent/media/${ids.media}` }), 200],
    ["media.deleted", () => ({ self: `${API}/v2/agent/media/${ids.mediaDeleted}` }), 404],
    ["schedule.failed", () => ({ self: `${API}/v2/agent/scheduled-actions/${ids.action}` }), 200],
    ["webhook.test", () => ({}), null],
  ];

  test("the table covers every event kind an endpoint can receive", () => {
    expect(rows.map((r) => r[0]).sort()).toEqual([...EVENT_TYPES, "webhook.test"].sort());
  });

  for (const [type, links, selfStatus] of rows) {
    test(`${type}: links ${selfStatus === null ? "without self" : `self answers ${selfStatus} on the agent mount`}`, async () => {
      const key = type === "instance.published" ? `${type}:${ids.published}` : type === "model.published" ? `${type}:${ids.model}` : type;
      const p = sent.get(key);
      expect(p).toBeDefined();
      expect(p!.links).toEqual(links());
      if (selfStatus === null) return;
      const path = new URL(p!.links.self).pathname;
      const r = await h.json("GET", path, { headers: { "x-api-key": agentKey } });
      expect([path, r.status]).toEqual([path, selfStatus]);
      if (selfStatus === 200) expect(r.body.id).toBe(path.split("/").pop());
    });
  }
});
