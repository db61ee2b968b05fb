// Two details of the entry editor (issue 26): a field's default value set in the field form (by
// kind: a number, yes or no, a date, text, JSON) and used when an entry is created without the
// field; and date-times entered and shown in the project's publishing zone, not the browser's.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectAccessible, signIn, startBrowserEnv, v2, type BrowserEnv } from "./browser.ts";

let env: BrowserEnv;
let modelId: string;
beforeAll(async () => {
  env = await startBrowserEnv();
  modelId = (
    await v2(env, "POST", "/v2/models", {
      name: "Task",
      namespace: "task",
      fields: [
        { namespace: "title", label: "Title", type: "string" },
        { namespace: "priority", label: "Priority", type: "number" },
        { namespace: "done", label: "Done", type: "true_false" },
        { namespace: "due", label: "Due", type: "date" },
        { namespace: "extra", label: "Extra", type: "mixed" },
      ],
    })
  ).id;
}, 60_000);
afterAll(async () => {
  await env?.close();
});

const fieldOf = async (ns: string) => (await v2(env, "GET", "/v2/models/task")).fields.find((f: { namespace: string }) => f.namespace === ns);

describe("a field's default value", () => {
  test("set in the field form by kind, saved on the model, and used by an entry created without the field", async () => {
    const p = await env.page();
    await signIn(p, env.origin, `/admin/models/${modelId}`);
    const edit = async (ns: string, fill: (rules: ReturnType<typeof p.getByRole>) => Promise<void>) => {
      await p.getByRole("button", { name: `Edit ${ns}` }).click();
      const dialog = p.getByRole("dialog", { name: `Edit ${ns}` });
      await fill(dialog.getByRole("group", { name: "Rules" }));
      await dialog.getByRole("button", { name: "Save field" }).click();
      await p.getByText(`Field ${ns} saved.`).waitFor();
    };
    await edit("priority", async (rules) => {
      expect(await rules.getByLabel("Default value").getAttribute("type")).toBe("number");
      await rules.getByLabel("Default value").fill("3");
    });
    await edit("done", (rules) =>
      rules
        .getByLabel("Default value")
        .selectOption({ label: "No" })
        .then(() => undefined),
    );
    await edit("extra", (rules) => rules.getByLabel("Default value").fill('{"size": 2}'));
    expect([(await fieldOf("priority")).default, (await fieldOf("done")).default, (await fieldOf("extra")).default]).toEqual([3, false, { size: 2 }]);
    // The form shows the saved default when opened again.
    await p.getByRole("button", { name: "Edit priority" }).click();
    expect(await p.getByRole("dialog", { name: "Edit priority" }).getByLabel("Default value").inputValue()).toBe("3");
    await expectAccessible(p);
    await p.getByRole("dialog", { name: "Edit priority" }).getByRole("button", { name: "Cancel" }).click();
    const created = await v2(env, "POST", "/v2/model-instances", { model: "task", data: { title: "Defaults" } });
    expect([created.draft.data.priority, created.draft.data.done, created.draft.data.extra]).toEqual([3, false, { size: 2 }]);
  }, 60_000);
});

describe("date-times in the project's zone", () => {
  test("with the project's publishing zone set, a date-time is shown and typed in it, and stored as the instant", async () => {
    await v2(env, "PUT", "/v2/scheduled-actions/defaults", { timezone: "Asia/Tokyo" });
    const e = await v2(env, "POST", "/v2/model-instances", { model: "task", data: { title: "Zoned", due: "2026-12-01T00:00:00.000Z" } });
    // The browser is in Berlin; the project publishes in Tokyo.
    const p = await env.page({ timezoneId: "Europe/Berlin" });
    await signIn(p, env.origin, `/admin/content/task/${e.id}`);
    await p.getByRole("heading", { name: "Zoned", level: 1 }).waitFor();
    await p.getByText("Asia/Tokyo").waitFor();
    expect(await p.getByLabel("Time of Due").inputValue()).toBe("09:00");
    expect(await p.getByLabel("Due", { exact: true }).inputValue()).toBe("2026-12-01");
    await p.getByLabel("Time of Due").fill("18:30");
    await p.getByRole("button", { name: "Save", exact: true }).click();
    await p
      .getByRole("status")
      .getByText(/^Saved at/)
      .waitFor({ timeout: 10_000 });
    expect((await v2(env, "GET", `/v2/model-instances/${e.id}`)).draft.data.due).toBe("2026-12-01T18:30:00+09:00");
  }, 60_000);
});
