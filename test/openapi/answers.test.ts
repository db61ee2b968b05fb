// The answers /v2/openapi.json promises are the answers the server sends: a walk through the
// management API (people, models, entries, scheduling, bulk, keys, webhooks, workspaces, media
// folders, field changes), each answer checked against the model its route declares.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { answerWalk } from "./answer-check.ts";

let h: Harness;
let token: string;
let projectId: string;
const { go, covered, problems } = answerWalk(() => ({ h, token, projectId }));

beforeAll(async () => {
  h = startApp({ webhookAllowPrivate: true });
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
});
afterAll(() => h.close());

describe("answers fit their declared models", () => {
  test("a walk through the management API", async () => {
    await go("GET", "/v2/user/me");
    await go("PATCH", "/v2/user/me", { name: "Owner" });
    await go("GET", "/v2/projects");
    await go("GET", `/v2/projects/${projectId}`);
    await go("PATCH", `/v2/projects/${projectId}`, { name: "Renamed" });
    await go("GET", `/v2/projects/${projectId}/members`);
    await go("POST", `/v2/projects/${projectId}/members`, { email: "new@example.com", role: "editor" }, 201);
    await go("GET", `/v2/projects/${projectId}/invitations`);

    const author = await go("POST", "/v2/models", { name: "Author", namespace: "author", fields: [{ namespace: "name", type: "string" }] }, 201);
    const post = await go(
      "POST",
      "/v2/models",
      {
        name: "Post",
        namespace: "post",
        fields: [
          { namespace: "title", type: "string" },
          { namespace: "views", type: "string" },
          { namespace: "author", type: "relation", relation: "author" },
        ],
      },
      201,
    );
    await go("GET", "/v2/models");
    await go("GET", "/v2/models/post");
    await go("PATCH", "/v2/models/post", { description: "Posts" });
    await go("PUT", "/v2/models/post/layout", {
      layout: { v: 1, main: [{ t: "card", id: "c", title: "Main", items: [{ t: "field", id: "t", fieldId: post.fields[0].id }] }] },
    });
    await go("GET", "/v2/projects/resolve?model=post");

    const a = await go("POST", "/v2/model-instances", { model: "author", data: { name: "Ann" } }, 201);
    const e = await go("POST", "/v2/model-instances", { model: "post", data: { title: "One", views: "12", author: a.id }, tags: ["x"] }, 201);
    await go("GET", "/v2/model-instances?model=post");
    await go("GET", `/v2/model-instances/${e.id}`);
    await go("PATCH", `/v2/model-instances/${e.id}`, { data: { title: "One!" } });
    await go("POST", `/v2/model-instances/${e.id}/publish`, {});
    await go("GET", `/v2/model-instances/${e.id}/versions`);
    await go("POST", `/v2/model-instances/${e.id}/unpublish`, {});
    await go("GET", `/v2/model-instances/${e.id}/scheduled`);
    await go("POST", "/v2/preview-tokens", { entryIds: [e.id] }, 201);

    await go("PUT", "/v2/scheduled-actions/defaults", { timezone: "Europe/Berlin" });
    await go("GET", "/v2/scheduled-actions/defaults");
    const sch = await go("POST", "/v2/scheduled-actions", { action: "publish", targets: [{ type: "instance", id: e.id }], wallTime: "2030-03-29T09:00" }, 201);
    await go("GET", "/v2/scheduled-actions");
    await go("GET", `/v2/scheduled-actions/${sch.actions[0].id}`);
    await go("GET", `/v2/scheduled-actions/batch/${sch.batchId}`);
    await go("PATCH", `/v2/scheduled-actions/${sch.actions[0].id}`, { wallTime: "2030-03-29T10:00" });
    await go("PATCH", `/v2/scheduled-actions/batch/${sch.batchId}`, { wallTime: "2030-03-29T11:00" });
    await go("POST", `/v2/scheduled-actions/batch/${sch.batchId}/cancel`, {});
    await go("GET", "/v2/scheduled-actions/failures");

    await go("POST", "/v2/model-instances/bulk-publish", { instanceIds: [e.id, a.id], dryRun: true });
    await go("POST", "/v2/model-instances/bulk-publish", { instanceIds: [e.id, a.id] });

    const key = await go("POST", "/v2/tenants/api-keys", { scopes: ["instance:read"] }, 201);
    await go("GET", "/v2/tenants/api-keys?includeStatus=true");
    await go("GET", "/v2/tenants/api-keys/grantable");
    await go("PATCH", `/v2/tenants/api-keys/${key.id}`, { name: "Site" });
    await go("PATCH", `/v2/tenants/api-keys/${key.id}/allowed-origins`, { allowedOrigins: ["https://example.com"] });
    await go("PATCH", `/v2/tenants/api-keys/${key.id}/active`, { active: true });
    await go("GET", `/v2/tenants/api-keys/${key.id}/domains-seen`);
    await go("POST", `/v2/tenants/api-keys/${key.id}/rotate`, { graceHours: 1 }, 201);

    const hook = await go("POST", "/v2/webhooks", { url: "https://127.0.0.1:9/hook", description: "Site" }, 201);
    await go("GET", "/v2/webhooks");
    await go("GET", `/v2/webhooks/${hook.id}`);
    await go("PATCH", `/v2/webhooks/${hook.id}`, { includeContent: true });
    await go("POST", `/v2/webhooks/${hook.id}/rotate-secret`, {});
    await go("POST", `/v2/webhooks/${hook.id}/test`, undefined, 202);
    await go("GET", `/v2/webhooks/${hook.id}/deliveries`);

    const folder = await go("POST", "/v2/media-folders", { name: "Pictures" }, 201);
    await go("GET", "/v2/media-folders");
    await go("PATCH", `/v2/media-folders/${folder.id}`, { name: "Photos" });
    await go("GET", "/v2/media");

    const ws = await go("POST", "/v2/workspaces", { name: "Site", template: "website", tree: [{ folder: "Extra", children: [{ model: "post" }] }] }, 201);
    await go("GET", "/v2/workspaces");
    await go("PUT", "/v2/workspaces/current", { workspaceId: ws.id });
    await go("PUT", `/v2/workspaces/${ws.id}`, { icon: "star" });
    const tree = await go("GET", `/v2/workspaces/${ws.id}/tree`);
    await go("GET", `/v2/workspaces/${ws.id}/document`);
    const added = await go("POST", `/v2/workspaces/${ws.id}/nodes`, { node: { entry: e.id } }, 201);
    await go("POST", `/v2/workspaces/${ws.id}/nodes/group`, { nodeIds: [added.id], name: "Group" }, 201);
    await go("POST", `/v2/workspaces/${ws.id}/nodes/move`, { nodeIds: [tree.data[0].id], position: 0 });
    await go("PUT", `/v2/workspaces/${ws.id}/nodes/${tree.data[0].id}`, { name: "Pages!" });
    await go("PUT", `/v2/workspaces/${ws.id}/tree`, { mode: "merge", tree: [{ media_folder: folder.id }] });
    await go("POST", `/v2/workspaces/${ws.id}/duplicate`, {}, 201);
    await go("PUT", `/v2/workspaces/${ws.id}/default`);
    await go("GET", `/v2/workspaces/${ws.id}/assign`);

    await go("POST", "/v2/models/post/field-changes/plan", { editFields: [{ id: post.fields[1].id, type: "number" }] });
    await go("GET", "/v2/models/post/field-changes");
    await go("GET", `/v2/models/${author.id}`);

    expect(problems).toEqual([]);
    // Every answer was checked: 69 routes of the table, the rest of the routes by the suites that own them.
    expect(covered.size).toBe(69);
  });
});
