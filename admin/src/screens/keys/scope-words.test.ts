// Key scopes in words (scope-words.ts) without a browser: the presets of a production and of a
// development key, scopes limited to models (named, and a deleted one said so), grouped writes,
// and a scope the app does not know shown as it is.
import { describe, expect, test } from "bun:test";
import { describeScopes, listWords, scopeWords } from "./scope-words.ts";

const NAMES: Record<string, string> = { a1: "Articles", b2: "Authors" };
const name = (id: string) => NAMES[id] ?? null;
const READ = ["instance:read", "model:read", "media:read", "search:read", "category:read", "type:read", "workspace:read"];

describe("scopes in words", () => {
  test("the read-only preset of a production and of a development key", () => {
    expect(describeScopes(READ, "production", name)).toEqual([
      { text: "Read published entries of every model", scopes: ["instance:read"] },
      { text: "Read models, media, categories, types and workspaces", scopes: ["model:read", "media:read", "category:read", "type:read", "workspace:read"] },
      { text: "Search entries", scopes: ["search:read"] },
    ]);
    expect(describeScopes(READ, "development", name)[0]!.text).toBe("Read drafts and published entries of every model");
  });

  test("scopes limited to models name them; writes on the same models share a line", () => {
    const scopes = [
      "instance:read:a1",
      "instance:read:b2",
      "instance:create:a1",
      "instance:update:a1",
      "instance:publish:a1",
      "model:read:a1",
      "media:create",
      "media:update",
    ];
    expect(describeScopes(scopes, "production", name)).toEqual([
      { text: "Read published entries of Articles and Authors", scopes: ["instance:read:a1", "instance:read:b2"] },
      { text: "Create, edit and publish entries of Articles", scopes: ["instance:create:a1", "instance:update:a1", "instance:publish:a1"] },
      { text: "Read the model Articles", scopes: ["model:read:a1"] },
      { text: "Upload and edit media", scopes: ["media:create", "media:update"] },
    ]);
  });

  test("a deleted model, webhooks, and a scope the app does not know", () => {
    expect(describeScopes(["instance:delete:gone", "webhook:read", "webhook:update", "future:thing"], "production", name)).toEqual([
      { text: "See webhooks", scopes: ["webhook:read"] },
      { text: "Delete entries of a deleted model", scopes: ["instance:delete:gone"] },
      { text: "Change webhooks", scopes: ["webhook:update"] },
      { text: "future:thing", scopes: ["future:thing"] },
    ]);
  });

  test("one scope alone, for the picker's checkboxes", () => {
    expect(["instance:read", "instance:publish", "model:update", "model:publish", "media:create", "search:read", "webhook:read"].map(scopeWords)).toEqual([
      "Read entries",
      "Publish entries",
      "Change models",
      "Publish model changes",
      "Upload media",
      "Search entries",
      "See webhooks",
    ]);
    expect([listWords([]), listWords(["a"]), listWords(["a", "b"]), listWords(["a", "b", "c"])]).toEqual(["", "a", "a and b", "a, b and c"]);
  });
});
