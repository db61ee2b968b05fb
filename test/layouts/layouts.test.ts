// Entry layouts: GET /v2/models/:id with `layout`, PUT and DELETE /v2/models/:id/layout, on the
// person mount and the agent mount (interface.md, Entry layout; Management routes: Entry layouts;
// Limits: Management and keys). Every refusal is 400 invalid_layout with `path`, and writes nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { memberToken } from "../api/helpers.ts";
import { INSUFFICIENT, INVALID_KEY, legacyKey, scopedKey } from "../agent-keys.ts";

let h: Harness;
let token: string;
let projectId: string;
let post: any;
let author: any;
let f: Record<string, string>;

const field = (id: string, extra: Record<string, unknown> = {}) => ({ t: "field", id: `i-${id.slice(-6)}`, fieldId: id, ...extra });

/** A valid layout using every part. */
function goodLayout() {
  return {
    v: 1,
    main: [
      {
        t: "card",
        id: "content",
        title: "Content",
        description: "What readers see",
        collapsible: true,
        collapsed: false,
        items: [field(f.title!, { width: "full" }), field(f.body!, { width: "two_thirds" }), field(f.author!, { width: "third", display: "embedded" })],
      },
    ],
    aside: [{ t: "card", id: "meta", title: "Meta", items: [field(f.score!, { width: "half" }), field(f.related!, { display: "picker" })] }],
  };
}

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
  author = (await h.json("POST", "/v2/models", { token, body: { name: "Author", namespace: "author", fields: [{ namespace: "name", type: "string" }] } })).body;
  post = (
    await h.json("POST", "/v2/models", {
      token,
      body: {
        name: "Post",
        namespace: "post",
        fields: [
          { namespace: "title", type: "string" },
          { namespace: "body", type: "markdown" },
          { namespace: "author", type: "relation", relation: "author" },
          { namespace: "score", type: "number" },
          { namespace: "related", type: "array", arrayType: "relation", relation: "post" },
        ],
      },
    })
  ).body;
  f = Object.fromEntries(post.fields.map((x: any) => [x.namespace, x.id]));
});
afterAll(() => h.close());

describe("saving and resetting a layout", () => {
  test("GET /v2/models/:id carries layout null before any is saved", async () => {
    const r = await h.json("GET", "/v2/models/post", { token });
    expect(r.status).toBe(200);
    expect(r.body.layout).toBeNull();
    expect(r.body.embedByDefault).toBe(false);
  });

  test("PUT saves a layout, answers the model with it normalised, and the model version stays", async () => {
    const r = await h.json("PUT", "/v2/models/post/layout", { token, body: { layout: goodLayout() } });
    expect(r.status).toBe(200);
    expect(r.body.version).toBe(post.version);
    expect(r.body.layout).toEqual({
      v: 1,
      main: [
        {
          t: "card",
          id: "content",
          title: "Content",
          description: "What readers see",
          collapsible: true,
          collapsed: false,
          items: [
            { t: "field", id: `i-${f.title!.slice(-6)}`, fieldId: f.title, width: "full" },
            { t: "field", id: `i-${f.body!.slice(-6)}`, fieldId: f.body, width: "two_thirds" },
            { t: "field", id: `i-${f.author!.slice(-6)}`, fieldId: f.author, width: "third", display: "embedded" },
          ],
        },
      ],
      aside: [
        {
          t: "card",
          id: "meta",
          title: "Meta",
          description: null,
          collapsible: false,
          collapsed: false,
          items: [
            { t: "field", id: `i-${f.score!.slice(-6)}`, fieldId: f.score, width: "half" },
            { t: "field", id: `i-${f.related!.slice(-6)}`, fieldId: f.related, width: "full", display: "picker" },
          ],
        },
      ],
    });
    const again = await h.json("GET", `/v2/models/${post.id}`, { token });
    expect(again.body.layout).toEqual(r.body.layout);
    expect(again.body.version).toBe(post.version);
  });

  test("a layout is live at once: the model list shows it too", async () => {
    const r = await h.json("GET", "/v2/models", { token });
    expect(r.body.data.find((m: any) => m.namespace === "post").layout.main[0].id).toBe("content");
  });

  test("a body without the layout key is refused and the saved layout stays", async () => {
    const r = await h.json("PUT", "/v2/models/post/layout", { token, body: {} });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: "The body must hold the layout key: { layout: {...} }, or { layout: null } to reset.",
      code: "invalid_layout",
      path: "layout",
    });
    expect((await h.json("GET", "/v2/models/post", { token })).body.layout.main[0].id).toBe("content");
  });

  test("a body with another key beside layout is refused", async () => {
    const r = await h.json("PUT", "/v2/models/post/layout", { token, body: { layout: null, fields: [] } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "fields is not part of a layout request; send { layout }", code: "invalid_body", field: "fields" });
  });

  test("{ layout: null } resets to the plain editor", async () => {
    const r = await h.json("PUT", "/v2/models/post/layout", { token, body: { layout: null } });
    expect(r.status).toBe(200);
    expect(r.body.layout).toBeNull();
    expect((await h.json("GET", "/v2/models/post", { token })).body.layout).toBeNull();
  });

  test("DELETE resets to the plain editor with 204", async () => {
    expect((await h.json("PUT", "/v2/models/post/layout", { token, body: { layout: goodLayout() } })).status).toBe(200);
    const r = await h.req("DELETE", "/v2/models/post/layout", { token });
    expect(r.status).toBe(204);
    expect(await r.text()).toBe("");
    expect((await h.json("GET", "/v2/models/post", { token })).body.layout).toBeNull();
  });

  test("an unknown model is 404 on PUT and DELETE", async () => {
    const put = await h.json("PUT", "/v2/models/nope/layout", { token, body: { layout: null } });
    expect(put.status).toBe(404);
    expect(put.body).toEqual({ error: 'No model "nope" in this project.', code: "not_found", field: "id" });
    expect((await h.json("DELETE", "/v2/models/nope/layout", { token })).status).toBe(404);
  });

  test("the smallest layout: v and an empty main; aside defaults to []", async () => {
    const r = await h.json("PUT", "/v2/models/post/layout", { token, body: { layout: { v: 1, main: [] } } });
    expect(r.status).toBe(200);
    expect(r.body.layout).toEqual({ v: 1, main: [], aside: [] });
  });
});

describe("refusals name the part to fix in path, and write nothing", () => {
  /** Builds a layout from the good one with one change. */
  const tweak = (fn: (l: any) => void) => {
    const l: any = goodLayout();
    fn(l);
    return l;
  };
  const otherFieldId = () => author.fields[0].id;
  const cases: [string, () => unknown, string, string | (() => string)][] = [
    ["layout not an object", () => [1], "layout", "layout must be an object { v: 1, main: [...], aside: [...] } or null"],
    ["v missing", () => tweak((l) => delete l.v), "v", "v must be the number 1"],
    ["v 2", () => tweak((l) => (l.v = 2)), "v", "v must be the number 1"],
    ["v as text", () => tweak((l) => (l.v = "1")), "v", "v must be the number 1"],
    ["unknown top-level key", () => tweak((l) => (l.sidebar = [])), "sidebar", "sidebar is not part of a layout document; allowed: v, main, aside"],
    ["main missing", () => tweak((l) => delete l.main), "main", "main must be a list of cards"],
    ["aside not a list", () => tweak((l) => (l.aside = {})), "aside", "aside must be a list of cards"],
    ["card not an object", () => tweak((l) => (l.main[0] = "card")), "main[0]", "main[0] must be a card object"],
    ["card t wrong", () => tweak((l) => (l.main[0].t = "panel")), "main[0].t", 'main[0].t must be "card"'],
    ["card id missing", () => tweak((l) => delete l.main[0].id), "main[0].id", "main[0].id must be 1 to 64 of a-z A-Z 0-9 _ -"],
    ["card id used twice", () => tweak((l) => (l.aside[0].id = "content")), "aside[0].id", 'aside[0].id "content" is used twice in this layout'],
    ["title missing", () => tweak((l) => delete l.main[0].title), "main[0].title", "main[0].title must be 1 to 80 characters"],
    ["title of 81 characters", () => tweak((l) => (l.main[0].title = "x".repeat(81))), "main[0].title", "main[0].title must be 1 to 80 characters"],
    [
      "description of 201 characters",
      () => tweak((l) => (l.aside[0].description = "d".repeat(201))),
      "aside[0].description",
      "aside[0].description must be text of at most 200 characters, or null",
    ],
    ["collapsible not boolean", () => tweak((l) => (l.main[0].collapsible = "yes")), "main[0].collapsible", "main[0].collapsible must be true or false"],
    [
      "collapsed without collapsible",
      () =>
        tweak((l) => {
          l.main[0].collapsible = false;
          l.main[0].collapsed = true;
        }),
      "main[0].collapsed",
      "main[0].collapsed needs collapsible: true",
    ],
    [
      "unknown card key",
      () => tweak((l) => (l.main[0].color = "red")),
      "main[0].color",
      "main[0].color is not part of a layout part; allowed: t, id, title, description, collapsible, collapsed, items",
    ],
    ["items missing", () => tweak((l) => delete l.aside[0].items), "aside[0].items", "aside[0].items must be a list of field items"],
    ["item not an object", () => tweak((l) => (l.main[0].items[1] = null)), "main[0].items[1]", "main[0].items[1] must be a field item object"],
    ["item t wrong", () => tweak((l) => (l.main[0].items[1].t = "card")), "main[0].items[1].t", 'main[0].items[1].t must be "field"'],
    [
      "item id with a space",
      () => tweak((l) => (l.main[0].items[0].id = "a b")),
      "main[0].items[0].id",
      "main[0].items[0].id must be 1 to 64 of a-z A-Z 0-9 _ -",
    ],
    [
      "fieldId not a UUID",
      () => tweak((l) => (l.main[0].items[2].fieldId = "title")),
      "main[0].items[2].fieldId",
      "main[0].items[2].fieldId must be a field id (UUID)",
    ],
    [
      "fieldId of another model",
      () => tweak((l) => (l.main[0].items[2].fieldId = otherFieldId())),
      "main[0].items[2].fieldId",
      () => `main[0].items[2].fieldId ${author.fields[0].id} is not a field of this model`,
    ],
    [
      "the same field twice",
      () => tweak((l) => (l.aside[0].items[0].fieldId = f.title)),
      "aside[0].items[0].fieldId",
      'aside[0].items[0].fieldId places the field "title" a second time',
    ],
    [
      "width quarter",
      () => tweak((l) => (l.main[0].items[0].width = "quarter")),
      "main[0].items[0].width",
      "main[0].items[0].width must be one of full, two_thirds, half, third",
    ],
    [
      "display on a text field",
      () => tweak((l) => (l.main[0].items[0].display = "inline")),
      "main[0].items[0].display",
      'main[0].items[0].display is only for relation fields; "title" is a string field',
    ],
    [
      "display on a number field",
      () => tweak((l) => (l.aside[0].items[0].display = "picker")),
      "aside[0].items[0].display",
      'aside[0].items[0].display is only for relation fields; "score" is a number field',
    ],
    [
      "display of an unknown kind",
      () => tweak((l) => (l.main[0].items[2].display = "table")),
      "main[0].items[2].display",
      "main[0].items[2].display must be one of picker, inline, embedded",
    ],
    [
      "unknown item key",
      () => tweak((l) => (l.main[0].items[0].label = "T")),
      "main[0].items[0].label",
      "main[0].items[0].label is not part of a layout part; allowed: t, id, fieldId, width, display",
    ],
    [
      "51 cards",
      () => ({
        v: 1,
        main: Array.from({ length: 30 }, (_, i) => ({ t: "card", id: `m${i}`, title: "M", items: [] })),
        aside: Array.from({ length: 21 }, (_, i) => ({ t: "card", id: `a${i}`, title: "A", items: [] })),
      }),
      "aside[20]",
      "A layout holds at most 50 cards",
    ],
  ];

  beforeAll(async () => {
    expect((await h.json("PUT", "/v2/models/post/layout", { token, body: { layout: goodLayout() } })).status).toBe(200);
  });

  test.each(cases)("%s", async (_name, layout, path, message) => {
    const before = (await h.json("GET", "/v2/models/post", { token })).body;
    const r = await h.json("PUT", "/v2/models/post/layout", { token, body: { layout: layout() } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: typeof message === "function" ? message() : message, code: "invalid_layout", path });
    expect((await h.json("GET", "/v2/models/post", { token })).body).toEqual(before);
  });

  test("exactly 50 cards are accepted", async () => {
    const layout = { v: 1, main: Array.from({ length: 50 }, (_, i) => ({ t: "card", id: `c${i}`, title: "C", items: [] })) };
    const r = await h.json("PUT", "/v2/models/post/layout", { token, body: { layout } });
    expect(r.status).toBe(200);
    expect(r.body.layout.main).toHaveLength(50);
  });

  test("500 fields are accepted and the 501st is refused at its path", async () => {
    const fields = Array.from({ length: 500 }, (_, i) => ({ namespace: `f${i}`, type: "string" }));
    const wide = (await h.json("POST", "/v2/models", { token, body: { name: "Wide", namespace: "wide", fields } })).body;
    const items = wide.fields.map((x: any, i: number) => ({ t: "field", id: `i${i}`, fieldId: x.id }));
    const cards = (list: any[]) =>
      Array.from({ length: Math.ceil(list.length / 50) }, (_, c) => ({ t: "card", id: `c${c}`, title: "C", items: list.slice(c * 50, c * 50 + 50) }));
    const ok = await h.json("PUT", "/v2/models/wide/layout", { token, body: { layout: { v: 1, main: cards(items) } } });
    expect(ok.status).toBe(200);
    const over = [...items, { t: "field", id: "extra", fieldId: wide.fields[0].id }];
    const r = await h.json("PUT", "/v2/models/wide/layout", { token, body: { layout: { v: 1, main: cards(over) } } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "A layout holds at most 500 fields", code: "invalid_layout", path: "main[10].items[0]" });
  });
});

describe("who may change a layout", () => {
  let viewer: string;
  let editor: string;
  let developer: string;
  beforeAll(async () => {
    viewer = await memberToken(h, token, projectId, "viewer@example.com", "viewer");
    editor = await memberToken(h, token, projectId, "editor@example.com", "editor");
    developer = await memberToken(h, token, projectId, "dev@example.com", "developer");
  });
  const as = (t: string) => ({ token: t, headers: { "x-svc-project": projectId } });

  test("a developer may", async () => {
    const r = await h.json("PUT", "/v2/models/post/layout", { ...as(developer), body: { layout: { v: 1, main: [] } } });
    expect(r.status).toBe(200);
  });

  test("an editor and a viewer are refused with the roles that may", async () => {
    const want = (current: string) => ({ error: "Insufficient permissions", required: ["owner", "admin", "developer"], current });
    for (const [t, role] of [
      [editor, "editor"],
      [viewer, "viewer"],
    ] as const) {
      const put = await h.json("PUT", "/v2/models/post/layout", { ...as(t), body: { layout: null } });
      expect(put.status).toBe(403);
      expect(put.body).toEqual(want(role));
      const del = await h.json("DELETE", "/v2/models/post/layout", as(t));
      expect(del.status).toBe(403);
      expect(del.body).toEqual(want(role));
    }
  });

  test("no token: 401 Authentication token required", async () => {
    const r = await h.json("PUT", "/v2/models/post/layout", { body: { layout: null } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: "Authentication token required" });
  });
});

describe("the agent mount", () => {
  let agent: string;
  let read: string;
  let write: string;
  let scoped: string;
  beforeAll(async () => {
    agent = await legacyKey(h, token, "agent");
    read = await legacyKey(h, token, "read");
    write = await legacyKey(h, token, "write");
    scoped = await scopedKey(h, token, ["model:read", "model:update"]);
  });
  const key = (k: string) => ({ headers: { "x-api-key": k } });

  test("an agent key reads the model with its layout, saves and resets a layout", async () => {
    const put = await h.json("PUT", "/v2/agent/models/post/layout", { ...key(agent), body: { layout: goodLayout() } });
    expect(put.status).toBe(200);
    expect(put.body.layout.main[0].id).toBe("content");
    const got = await h.json("GET", `/v2/agent/models/${post.id}`, key(agent));
    expect(got.status).toBe(200);
    expect(got.body.layout).toEqual(put.body.layout);
    expect(got.body.embedByDefault).toBe(false);
    const del = await h.req("DELETE", "/v2/agent/models/post/layout", key(agent));
    expect(del.status).toBe(204);
    expect((await h.json("GET", "/v2/agent/models/post", key(agent))).body.layout).toBeNull();
  });

  test("the agent mount refuses bad layouts the same way", async () => {
    const r = await h.json("PUT", "/v2/agent/models/post/layout", {
      ...key(agent),
      body: { layout: { v: 1, main: [{ t: "card", id: "x", title: "X", items: [{ t: "field", id: "y", fieldId: "nope" }] }] } },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "main[0].items[0].fieldId must be a field id (UUID)", code: "invalid_layout", path: "main[0].items[0].fieldId" });
  });

  test("read and write keys may read the model but not change its layout", async () => {
    for (const k of [read, write]) {
      expect((await h.json("GET", "/v2/agent/models/post", key(k))).status).toBe(200);
      const put = await h.json("PUT", "/v2/agent/models/post/layout", { ...key(k), body: { layout: null } });
      expect(put.status).toBe(403);
      expect(put.body).toEqual(INSUFFICIENT);
      const del = await h.json("DELETE", "/v2/agent/models/post/layout", key(k));
      expect(del.status).toBe(403);
      expect(del.body).toEqual(INSUFFICIENT);
    }
  });

  test("a scoped key, an unknown key and no key are 401 Invalid API key", async () => {
    for (const opts of [key(scoped), key("pk_not_a_real_key"), {}]) {
      const r = await h.json("PUT", "/v2/agent/models/post/layout", { ...opts, body: { layout: null } });
      expect(r.status).toBe(401);
      expect(r.body).toEqual(INVALID_KEY);
      const g = await h.json("GET", "/v2/agent/models/post", opts);
      expect(g.status).toBe(401);
      expect(g.body).toEqual(INVALID_KEY);
    }
  });

  test("a key on the person mount is refused like an unknown key", async () => {
    const r = await h.json("PUT", "/v2/models/post/layout", { ...key(agent), body: { layout: null } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual(INVALID_KEY);
  });
});
