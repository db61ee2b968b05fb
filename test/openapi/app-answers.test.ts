// The answers the admin app reads fit the models it takes its types from (src/shared/): the
// parts answers.test.ts's walk does not reach, where the models were made precise for the app —
// a field change's ops, decisions, error and failed values, the scheduled list's expanded targets,
// an entry's usage, versions, rules check and trash, a bulk batch, saved views' filters and search.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { run } from "../field-changes/helpers.ts";
import { answerWalk } from "./answer-check.ts";

let h: Harness;
let token: string;
let projectId: string;
const { go, covered, problems } = answerWalk(() => ({ h, token, projectId }));

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
});
afterAll(() => h.close());

describe("the answers the admin app reads fit their models", () => {
  test("field changes: a plan with examples, an applied change with its decisions and failed values, a stopped one with its error", async () => {
    const m = await go(
      "POST",
      "/v2/models",
      {
        name: "Product",
        namespace: "product",
        fields: [
          { namespace: "title", type: "string" },
          { namespace: "size", type: "string" },
          { namespace: "weight", type: "string" },
          { namespace: "kind", type: "enum", options: { values: ["a", "b"] } },
        ],
      },
      201,
    );
    const [, size, weight] = m.fields.map((f: { id: string }) => f.id);
    await go("POST", "/v2/model-instances", { model: "product", data: { title: "One", size: "12", weight: "3", kind: "a" } }, 201);
    await go("POST", "/v2/model-instances", { model: "product", data: { title: "Two", size: "large", weight: "heavy" } }, 201);

    const edit = { editFields: [{ id: size, type: "number" }] };
    const plan = await go("POST", "/v2/models/product/field-changes/plan", edit);
    expect(plan.ops[0].examples.map((x: { value: unknown; outcome: string }) => [x.value, x.outcome])).toEqual([["large", "fail"]]);
    const applied = await go(
      "POST",
      "/v2/models/product/field-changes",
      { ...edit, planHash: plan.planHash, decisions: [{ opId: plan.ops[0].id, choice: "convert", onFailure: "clear" }] },
      202,
    );
    await go("GET", "/v2/models/product/field-changes/current");
    await run(h);
    const done = await go("GET", `/v2/field-changes/${applied.id}`);
    expect([done.state, done.ops[0].decision, done.failures.data.map((f: { value: unknown }) => f.value)]).toEqual([
      "done",
      { choice: "convert", onFailure: "clear" },
      ["large"],
    ]);

    const stopEdit = { editFields: [{ id: weight, type: "number" }] };
    const stopPlan = await go("POST", "/v2/models/product/field-changes/plan", stopEdit);
    const stopped = await go(
      "POST",
      "/v2/models/product/field-changes",
      { ...stopEdit, planHash: stopPlan.planHash, decisions: [{ opId: stopPlan.ops[0].id, choice: "convert", onFailure: "stop" }] },
      202,
    );
    await run(h);
    const failed = await go("GET", `/v2/field-changes/${stopped.id}`);
    expect(failed.state).toBe("failed");
    expect(Object.keys(failed.error ?? {})).toEqual(["code", "message"]);
    await go("GET", "/v2/models/product/field-changes?limit=200");
    await go("GET", "/v2/models/product");

    expect(problems).toEqual([]);
  });

  test("entries, schedules, trash and views as the app's screens read them", async () => {
    await go("POST", "/v2/models", { name: "Tag", namespace: "tag", fields: [{ namespace: "title", type: "string" }] }, 201);
    await go(
      "POST",
      "/v2/models",
      {
        name: "Post",
        namespace: "post",
        fields: [
          { namespace: "title", type: "string", required: true },
          { namespace: "tag", type: "relation", relation: "tag" },
        ],
      },
      201,
    );
    const tag = await go("POST", "/v2/model-instances", { model: "tag", data: { title: "News" } }, 201);
    const post = await go("POST", "/v2/model-instances", { model: "post", data: { title: "Hello", tag: tag.id } }, 201);
    await go("POST", `/v2/model-instances/${tag.id}/publish`, {});
    await go("PATCH", `/v2/model-instances/${post.id}?autosave=true`, { data: { title: "Hello again" } });
    await go("POST", "/v2/model-instances/validate", { model: "post", data: { title: "" } });
    await go("GET", `/v2/model-instances/${tag.id}/usage`);
    await go("GET", `/v2/model-instances/${post.id}/versions`);
    await go("GET", "/v2/model-instances/columns?model=post");
    await go("GET", "/v2/model-instances?model=post&sort=-updatedAt");
    const copy = await go("POST", `/v2/model-instances/${post.id}/duplicate`, {}, 201);

    await go(
      "POST",
      "/v2/scheduled-actions",
      { action: "publish", targets: [{ type: "instance", id: post.id }], wallTime: "2030-03-29T09:00", timezone: "UTC" },
      201,
    );
    await go(
      "POST",
      "/v2/scheduled-actions",
      { action: "unpublish", targets: [{ type: "model", id: "tag" }], wallTime: "2030-04-01T09:00", timezone: "UTC" },
      201,
    );
    const page = await go("GET", "/v2/scheduled-actions?expand=target");
    expect(page.data.map((a: { target: { type: string } }) => a.target.type).sort()).toEqual(["instance", "model"]);
    await go("GET", `/v2/model-instances/${post.id}/scheduled`);
    await go("POST", "/v2/model-instances/bulk-schedule", { instanceIds: [copy.id], action: "publish", wallTime: "2030-05-01T09:00", timezone: "UTC" }, 201);

    // Above 50 entries a bulk action is a batch the list polls.
    const many: string[] = [];
    for (let i = 0; i < 51; i++) many.push((await go("POST", "/v2/model-instances", { model: "tag", data: { title: `Tag ${i}` } }, 201)).id);
    const queued = await go("POST", "/v2/model-instances/bulk-publish", { instanceIds: many, expectedCount: 51 }, 202);
    expect((await go("GET", queued.poll)).counts).toEqual({ done: 0, skipped: 0, failed: 0, remaining: 51 });

    await go("DELETE", `/v2/model-instances/${copy.id}`, undefined, 204);
    await go("GET", "/v2/trash");
    await go("GET", `/v2/trash/${copy.id}`);
    await go("POST", `/v2/trash/${copy.id}/restore`, {});

    await go(
      "POST",
      "/v2/views",
      { model: "post", name: "Mine", where: { title: { contains: "Hello" } }, search: "Hello", columns: ["title"], sort: "-updatedAt" },
      201,
    );
    await go("GET", "/v2/views");
    await go("GET", "/v2/search?q=Hello");
    await go("GET", "/v2/home");
    await go("GET", "/v2/locales");

    expect(problems).toEqual([]);
    // 31 routes of the table, counted over both tests.
    expect(covered.size).toBe(31);
  });
});
