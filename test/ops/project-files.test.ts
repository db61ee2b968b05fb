// Project files under contention (issue 15 items 2 and 3): opening a file waits for a lock held
// elsewhere instead of failing, and a request holds its project file open until it is answered.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { ROOT } from "../spawn.ts";
import { openProjectFile } from "../../src/storage/sqlite.ts";

let h: Harness | null = null;
afterEach(() => {
  h?.close();
  h = null;
});

describe("project files", () => {
  test("opening a project file while another process holds its lock waits for it (busy timeout before WAL)", async () => {
    h = startApp();
    const { project } = await withOwner(h);
    const path = h.capa.services.projects.path(project.id);
    h.capa.services.projects.close(project.id);
    const holder = Bun.spawn([process.execPath, join(ROOT, "test/fixtures/hold-lock.ts"), path, "300"], { stdout: "pipe" });
    await holder.stdout.getReader().read();
    let error = "";
    try {
      openProjectFile(path).sqlite.close();
    } catch (e) {
      error = String(e);
    }
    expect(await holder.exited).toBe(0);
    expect(error).toBe("");
  });

  test("a request that waits for its body keeps its project file open past the idle close", async () => {
    h = startApp({ projectIdleMs: 30 });
    const { token } = await withOwner(h);
    expect(
      (await h.json("POST", "/v2/models", { token, body: { name: "Post", namespace: "post", fields: [{ namespace: "title", type: "string" }] } })).status,
    ).toBe(201);
    const body = new TextEncoder().encode(JSON.stringify({ model: "post", data: { title: "Slow" } }));
    // The body arrives well after the idle close would have closed the file the route opened.
    const slow = new ReadableStream<Uint8Array>({
      async pull(c) {
        await Bun.sleep(200);
        c.enqueue(body);
        c.close();
      },
    });
    const r = await h.json("POST", "/v2/model-instances", { token, raw: slow, headers: { "content-type": "application/json" } });
    expect([r.status, r.body.draft?.data]).toEqual([201, { title: "Slow" }]);
    // The file was let go of once the answer went out; the next request opens it again.
    const list = await h.json("GET", "/v2/model-instances?model=post", { token });
    expect(list.body.data.map((e: { draft: { data: { title: string } } }) => e.draft.data.title)).toEqual(["Slow"]);
  });
});
