// Projects, the x-svc-project header and members under /v2/projects (interface.md, Sessions and
// projects, Authentication: Management routes; decisions.md section 2).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { createProject } from "../../src/domain/projects/service.ts";

const T0 = "2026-11-21T12:00:00.000Z";
const NOT_MEMBER = { error: "You are not a member of this project" };

/** Creates an account and signs it in. */
async function signIn(h: Harness, email: string, password = "member-password-1") {
  const user = createUser(h.capa.services, { email, password });
  const r = await h.json("POST", "/v2/user/login", { body: { email, password } });
  expect(r.status).toBe(200);
  return { user, token: r.body.accessToken as string };
}

/** Invites an existing account and accepts as it (signed in with `token`); answers the acceptance. */
async function invitedAs(h: Harness, inviterToken: string, projectId: string, email: string, role: string, token: string) {
  const invited = await h.json("POST", `/v2/projects/${projectId}/members`, { token: inviterToken, body: { email, role } });
  expect(invited.status).toBe(201);
  return h.json("POST", "/v2/invitations/accept", { token, body: { token: invited.body.invitation.token } });
}

describe("GET and POST /v2/projects", () => {
  let h: Harness;
  let owner: Awaited<ReturnType<typeof withOwner>>;
  beforeAll(async () => {
    h = startApp();
    owner = await withOwner(h);
  });
  afterAll(() => h.close());

  test("lists the caller's projects with id, name, slug, role, lastOpenedAt", async () => {
    const r = await h.json("GET", "/v2/projects", { token: owner.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: [{ id: owner.project.id, name: "Test Project", slug: owner.project.slug, role: "owner", lastOpenedAt: T0 }],
    });
  });

  test("POST creates a project whose creator is owner, with a slug made from the name", async () => {
    h.clock.advance(1000);
    const r = await h.json("POST", "/v2/projects", { token: owner.token, body: { name: "  Second Site!  " } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "Second Site!", slug: "second-site", role: "owner" });
    expect(r.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(existsSync(join(h.dir, "projects", `${r.body.id}.sqlite`))).toBe(true);
    const members = await h.json("GET", `/v2/projects/${r.body.id}/members`, { token: owner.token });
    expect(members.body.data.map((m: any) => [m.email, m.role])).toEqual([["owner@example.com", "owner"]]);
    // A second project of the same name gets the next free slug.
    const again = await h.json("POST", "/v2/projects", { token: owner.token, body: { name: "Second Site" } });
    expect(again.status).toBe(201);
    expect(again.body.slug).toBe("second-site-2");
  });

  test("GET /v2/projects/:id answers one project with the caller's role", async () => {
    const r = await h.json("GET", `/v2/projects/${owner.project.id.toUpperCase()}`, { token: owner.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: owner.project.id, name: "Test Project", slug: owner.project.slug, role: "owner", createdAt: T0, updatedAt: T0 });
    const ghost = await h.json("GET", `/v2/projects/${crypto.randomUUID()}`, { token: owner.token });
    expect([ghost.status, ghost.body]).toEqual([403, NOT_MEMBER]);
  });

  const badSlugs: [string, unknown][] = [
    ["two characters", "ab"],
    ["49 characters", "a".repeat(49)],
    ["capital letter", "Abc"],
    ["double hyphen", "a--b"],
    ["leading hyphen", "-ab"],
    ["trailing hyphen", "ab-"],
    ["underscore", "a_bc"],
    ["space", "a bc"],
    ["non-ASCII letter", "café"],
    ["not text", 123],
  ];
  for (const [name, slug] of badSlugs) {
    test(`slug refused: ${name}`, async () => {
      const before = (await h.json("GET", "/v2/projects", { token: owner.token })).body.data.length;
      const r = await h.json("POST", "/v2/projects", { token: owner.token, body: { name: "Slugged", slug } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "invalid_body", field: "slug" });
      expect((await h.json("GET", "/v2/projects", { token: owner.token })).body.data.length).toBe(before);
      const patch = await h.json("PATCH", `/v2/projects/${owner.project.id}`, { token: owner.token, body: { slug } });
      expect(patch.status).toBe(400);
      expect(patch.body).toMatchObject({ code: "invalid_body", field: "slug" });
    });
  }

  for (const slug of ["abc", "a".repeat(48), "a1-b2-c3", "123", "x-y-z"]) {
    test(`slug accepted: ${slug}`, async () => {
      const r = await h.json("POST", "/v2/projects", { token: owner.token, body: { name: "Slugged", slug } });
      expect(r.status).toBe(201);
      expect(r.body.slug).toBe(slug);
    });
  }

  test("POST with a slug already held: exactly 409 That URL is taken (with field slug)", async () => {
    const r = await h.json("POST", "/v2/projects", { token: owner.token, body: { name: "Dup", slug: owner.project.slug } });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: "That URL is taken", field: "slug" });
  });

  test("a missing or empty name is refused with field name", async () => {
    for (const body of [{}, { name: "   " }, { name: 7 }]) {
      const r = await h.json("POST", "/v2/projects", { token: owner.token, body });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "invalid_body", field: "name" });
    }
  });

  test("the list is sorted by last opened, and an unopened project has lastOpenedAt null", async () => {
    const other = await signIn(h, "list-other@example.com");
    const p = createProject(h.capa.services, { name: "Other's", slug: "others-project", ownerId: other.user.id });
    await invitedAs(h, other.token, p.id, "owner@example.com", "viewer", owner.token);
    const r = await h.json("GET", "/v2/projects", { token: owner.token });
    const row = r.body.data.at(-1);
    expect(row).toEqual({ id: p.id, name: "Other's", slug: "others-project", role: "viewer", lastOpenedAt: null });
    const opened = r.body.data.slice(0, -1).map((x: any) => x.lastOpenedAt);
    expect(opened).toEqual([...opened].sort().reverse());
  });
});

describe("PATCH and DELETE /v2/projects/:id", () => {
  let h: Harness;
  let owner: Awaited<ReturnType<typeof withOwner>>;
  let editor: { token: string };
  let admin: { token: string };
  let outsider: { token: string };
  beforeAll(async () => {
    h = startApp();
    owner = await withOwner(h);
    editor = await signIn(h, "editor@example.com");
    admin = await signIn(h, "admin@example.com");
    outsider = await signIn(h, "outsider@example.com");
    for (const [email, role, token] of [
      ["editor@example.com", "editor", editor.token],
      ["admin@example.com", "admin", admin.token],
    ]) {
      const r = await invitedAs(h, owner.token, owner.project.id, email!, role!, token!);
      expect(r.status).toBe(200);
    }
    createProject(h.capa.services, { name: "Taken", slug: "taken-slug", ownerId: owner.user.id });
  });
  afterAll(() => h.close());

  test("PATCH to a slug held by another project: exactly 409 That URL is taken (with field slug)", async () => {
    const r = await h.json("PATCH", `/v2/projects/${owner.project.id}`, { token: owner.token, body: { slug: "taken-slug" } });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: "That URL is taken", field: "slug" });
  });

  test("PATCH to the project's own slug is not a conflict", async () => {
    const r = await h.json("PATCH", `/v2/projects/${owner.project.id}`, { token: owner.token, body: { slug: owner.project.slug } });
    expect(r.status).toBe(200);
    expect(r.body.slug).toBe(owner.project.slug);
  });

  test("PATCH by an editor: 403 with required owner, admin and current editor", async () => {
    const r = await h.json("PATCH", `/v2/projects/${owner.project.id}`, { token: editor.token, body: { slug: "editors-slug" } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: "Insufficient permissions", required: ["owner", "admin"], current: "editor" });
  });

  test("PATCH by a non-member or of an unknown project: 403 not a member", async () => {
    const a = await h.json("PATCH", `/v2/projects/${owner.project.id}`, { token: outsider.token, body: { slug: "outsider-slug" } });
    expect(a.status).toBe(403);
    expect(a.body).toEqual(NOT_MEMBER);
    const b = await h.json("PATCH", `/v2/projects/${crypto.randomUUID()}`, { token: owner.token, body: { slug: "ghost-slug" } });
    expect(b.status).toBe(403);
    expect(b.body).toEqual(NOT_MEMBER);
  });

  test("PATCH by an admin changes slug and name", async () => {
    h.clock.advance(5000);
    const r = await h.json("PATCH", `/v2/projects/${owner.project.id}`, { token: admin.token, body: { slug: "renamed-site", name: "Renamed" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: owner.project.id, slug: "renamed-site", name: "Renamed", updatedAt: "2026-11-21T12:00:05.000Z" });
    const list = await h.json("GET", "/v2/projects", { token: owner.token });
    expect(list.body.data.find((p: any) => p.id === owner.project.id)).toMatchObject({ slug: "renamed-site", name: "Renamed" });
  });

  test("PATCH with nothing to change is refused", async () => {
    const r = await h.json("PATCH", `/v2/projects/${owner.project.id}`, { token: owner.token, body: {} });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_body");
  });

  test("DELETE is the owner's alone", async () => {
    for (const [who, role] of [
      [admin, "admin"],
      [editor, "editor"],
    ] as const) {
      const r = await h.json("DELETE", `/v2/projects/${owner.project.id}`, { token: who.token, body: { slug: "renamed-site" } });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: "Insufficient permissions", required: ["owner"], current: role });
    }
  });

  test("DELETE needs the slug typed, then removes the project and its file", async () => {
    const id = owner.project.id;
    const file = join(h.dir, "projects", `${id}.sqlite`);
    // Open the file so deletion has a handle to close.
    expect((await h.json("GET", "/v2/models", { token: owner.token, headers: { "x-svc-project": id } })).status).toBe(200);
    expect(existsSync(file)).toBe(true);
    for (const body of [{}, { slug: "wrong-slug" }, { slug: owner.project.slug }]) {
      const r = await h.json("DELETE", `/v2/projects/${id}`, { token: owner.token, body });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "confirmation_mismatch", field: "slug" });
    }
    expect(existsSync(file)).toBe(true);
    const r = await h.json("DELETE", `/v2/projects/${id}`, { token: owner.token, body: { slug: "renamed-site" } });
    expect(r.status).toBe(204);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}-wal`)).toBe(false);
    const list = await h.json("GET", "/v2/projects", { token: owner.token });
    expect(list.body.data.map((p: any) => p.id)).not.toContain(id);
    // Every member lost it, and its slug is free again.
    const asEditor = await h.json("GET", "/v2/models", { token: editor.token, headers: { "x-svc-project": id } });
    expect(asEditor.status).toBe(403);
    expect(asEditor.body).toEqual(NOT_MEMBER);
    const reuse = await h.json("POST", "/v2/projects", { token: owner.token, body: { name: "Again", slug: "renamed-site" } });
    expect(reuse.status).toBe(201);
  });
});

describe("the x-svc-project header", () => {
  let h: Harness;
  let a: Awaited<ReturnType<typeof withOwner>>;
  let b: { id: string };
  let foreign: { id: string };
  let deleted: { id: string };
  beforeAll(async () => {
    h = startApp();
    a = await withOwner(h, "alice@example.com");
    const bob = await signIn(h, "bob@example.com");
    b = createProject(h.capa.services, { name: "Bob's", slug: "bobs-project", ownerId: bob.user.id });
    foreign = createProject(h.capa.services, { name: "Bob's private", slug: "bobs-private", ownerId: bob.user.id });
    const add = await invitedAs(h, bob.token, b.id, "alice@example.com", "viewer", a.token);
    expect(add.status).toBe(200);
    const c = await h.json("POST", "/v2/projects", { token: a.token, body: { name: "Doomed", slug: "doomed-project" } });
    deleted = c.body;
    expect((await h.json("DELETE", `/v2/projects/${deleted.id}`, { token: a.token, body: { slug: "doomed-project" } })).status).toBe(204);
    // Creating a project opened it; open A again.
    expect((await h.json("PUT", "/v2/projects/current", { token: a.token, body: { projectId: a.project.id } })).status).toBe(200);
    // One model in A tells the projects apart.
    expect((await h.json("POST", "/v2/models", { token: a.token, body: { name: "In A", namespace: "in_a" } })).status).toBe(201);
  });
  afterAll(() => h.close());

  const namespaces = async (headers: Record<string, string> = {}) => {
    const r = await h.json("GET", "/v2/models", { token: a.token, headers });
    expect(r.status).toBe(200);
    return r.body.data.map((m: any) => m.namespace);
  };

  test("absent: the request runs in the last opened project", async () => {
    expect(await namespaces()).toEqual(["in_a"]);
  });

  test("a project the person belongs to: runs there with the person's role there", async () => {
    expect(await namespaces({ "x-svc-project": b.id })).toEqual([]);
    const r = await h.json("POST", "/v2/models", { token: a.token, headers: { "x-svc-project": b.id }, body: { name: "Nope", namespace: "nope" } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: "Insufficient permissions", required: ["owner", "admin", "developer"], current: "viewer" });
    // Upper-case ids name the same project.
    expect(await namespaces({ "x-svc-project": b.id.toUpperCase() })).toEqual([]);
  });

  const refused: [string, () => string][] = [
    ["a project of which the person is not a member", () => foreign.id],
    ["an unknown project", () => crypto.randomUUID()],
    ["a deleted project", () => deleted.id],
  ];
  for (const [name, id] of refused) {
    test(`${name}: exactly 403 You are not a member of this project`, async () => {
      const r = await h.json("GET", "/v2/models", { token: a.token, headers: { "x-svc-project": id() } });
      expect(r.status).toBe(403);
      expect(r.body).toEqual(NOT_MEMBER);
    });
  }

  for (const value of ["", "bobs-project", "123", `${crypto.randomUUID()}x`]) {
    test(`not a project id (${JSON.stringify(value)}): exactly 400 x-svc-project must be a project id`, async () => {
      const r = await h.json("GET", "/v2/models", { token: a.token, headers: { "x-svc-project": value } });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: "x-svc-project must be a project id" });
    });
  }

  test("the header never changes the last-opened project", async () => {
    const before = (await h.json("GET", "/v2/projects", { token: a.token })).body.data;
    h.clock.advance(60_000);
    await namespaces({ "x-svc-project": b.id });
    await h.json("GET", `/v2/projects/${b.id}`, { token: a.token, headers: { "x-svc-project": b.id } });
    await h.json("GET", "/v2/models", { token: a.token, headers: { "x-svc-project": foreign.id } });
    const after = (await h.json("GET", "/v2/projects", { token: a.token })).body.data;
    expect(after).toEqual(before);
    expect(after.find((p: any) => p.id === b.id).lastOpenedAt).toBeNull();
    expect(await namespaces()).toEqual(["in_a"]);
  });

  test("PUT /v2/projects/current changes the last-opened project", async () => {
    h.clock.advance(60_000);
    const r = await h.json("PUT", "/v2/projects/current", { token: a.token, body: { projectId: b.id.toUpperCase() } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ projectId: b.id });
    expect(await namespaces()).toEqual([]);
    const list = (await h.json("GET", "/v2/projects", { token: a.token })).body.data;
    expect(list[0]).toMatchObject({ id: b.id, role: "viewer", lastOpenedAt: new Date(h.clock.now()).toISOString() });
    // Back to A for the tests that follow.
    expect((await h.json("PUT", "/v2/projects/current", { token: a.token, body: { projectId: a.project.id } })).status).toBe(200);
    expect(await namespaces()).toEqual(["in_a"]);
  });

  test("PUT /v2/projects/current refuses a non-member project and a non-id", async () => {
    const r = await h.json("PUT", "/v2/projects/current", { token: a.token, body: { projectId: foreign.id } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual(NOT_MEMBER);
    const bad = await h.json("PUT", "/v2/projects/current", { token: a.token, body: { projectId: "bobs-project" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "invalid_body", field: "projectId" });
  });

  test("with no project opened and no header, a project route answers 400 no_project", async () => {
    const lone = await signIn(h, "lone@example.com");
    const r = await h.json("GET", "/v2/models", { token: lone.token });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("no_project");
    expect((await h.json("GET", "/v2/projects", { token: lone.token })).body).toEqual({ data: [] });
  });
});

describe("members", () => {
  let h: Harness;
  let owner: Awaited<ReturnType<typeof withOwner>>;
  let pid: string;
  const path = () => `/v2/projects/${pid}/members`;
  beforeAll(async () => {
    h = startApp();
    owner = await withOwner(h);
    pid = owner.project.id;
  });
  afterAll(() => h.close());

  test("the list starts with the owner", async () => {
    const r = await h.json("GET", path(), { token: owner.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [{ userId: owner.user.id, email: "owner@example.com", name: null, role: "owner", createdAt: "2026-11-21T12:00:00.000Z" }] });
  });

  let carol: string;
  test("inviting an unknown e-mail answers a single-use token once; accepting it with a password creates the account", async () => {
    const r = await h.json("POST", path(), { token: owner.token, body: { email: "Carol@Example.com", role: "editor" } });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body)).toEqual(["invitation"]);
    expect(Object.keys(r.body.invitation)).toEqual(["id", "email", "role", "expiresAt", "token"]);
    expect(r.body.invitation).toMatchObject({ email: "carol@example.com", role: "editor", expiresAt: "2026-11-28T12:00:00.000Z" });
    expect(r.body.invitation.token).toMatch(/^inv_[A-Za-z0-9_-]{32,}$/);
    // Not a member until the person accepts, and the list never shows the token.
    expect((await h.json("GET", path(), { token: owner.token })).body.data.map((m: any) => m.email)).toEqual(["owner@example.com"]);
    const list = await h.json("GET", `/v2/projects/${pid}/invitations`, { token: owner.token });
    expect(list.body).toEqual({
      data: [
        {
          id: r.body.invitation.id,
          email: "carol@example.com",
          role: "editor",
          status: "pending",
          createdAt: T0,
          createdBy: owner.user.id,
          expiresAt: "2026-11-28T12:00:00.000Z",
          acceptedAt: null,
        },
      ],
    });
    const accepted = await h.json("POST", "/v2/invitations/accept", { body: { token: r.body.invitation.token, password: "carol-password-1" } });
    expect(accepted.status).toBe(201);
    expect(Object.keys(accepted.body)).toEqual(["accessToken", "refreshToken"]);
    const again = await h.json("POST", "/v2/invitations/accept", { body: { token: r.body.invitation.token, password: "carol-password-2" } });
    expect([again.status, again.body]).toEqual([
      404,
      { error: "The invitation is not valid: it was never made, was used, withdrawn, or has expired.", code: "invitation_not_found" },
    ]);
    const login = await h.json("POST", "/v2/user/login", { body: { email: "carol@example.com", password: "carol-password-1" } });
    expect(login.status).toBe(200);
    const projects = await h.json("GET", "/v2/projects", { token: login.body.accessToken });
    expect(projects.body.data).toEqual([{ id: pid, name: "Test Project", slug: owner.project.slug, role: "editor", lastOpenedAt: null }]);
    carol = (await h.json("GET", path(), { token: owner.token })).body.data.find((m: any) => m.email === "carol@example.com").userId;
    // Carol has never opened it: she names it in the header.
    const models = await h.json("GET", "/v2/models", { token: login.body.accessToken, headers: { "x-svc-project": pid } });
    expect(models.status).toBe(200);
  });

  test("an existing account accepts only while signed in as itself, and no password is ever set for it", async () => {
    const dave = createUser(h.capa.services, { email: "dave@example.com", password: "dave-password-1" });
    const r = await h.json("POST", path(), { token: owner.token, body: { email: "dave@example.com", role: "viewer" } });
    const token = r.body.invitation.token;
    const withPassword = await h.json("POST", "/v2/invitations/accept", { body: { token, password: "hijack-password" } });
    expect([withPassword.status, withPassword.body]).toEqual([
      400,
      { error: "This e-mail has an account already: sign in as it and accept without a password", code: "invalid_body", field: "password" },
    ]);
    const anonymous = await h.json("POST", "/v2/invitations/accept", { body: { token } });
    expect([anonymous.status, anonymous.body]).toEqual([401, { error: "Authentication token required" }]);
    const asCarol = (await h.json("POST", "/v2/user/login", { body: { email: "carol@example.com", password: "carol-password-1" } })).body.accessToken;
    const wrong = await h.json("POST", "/v2/invitations/accept", { token: asCarol, body: { token } });
    expect([wrong.status, wrong.body]).toEqual([
      403,
      { error: "The invitation is for another e-mail address than the account signed in.", code: "invitation_for_another_account" },
    ]);
    expect((await h.json("POST", "/v2/user/login", { body: { email: "dave@example.com", password: "hijack-password" } })).status).toBe(401);
    const asDave = (await h.json("POST", "/v2/user/login", { body: { email: "dave@example.com", password: "dave-password-1" } })).body.accessToken;
    const ok = await h.json("POST", "/v2/invitations/accept", { token: asDave, body: { token } });
    expect(ok.body).toEqual({ project: { id: pid, name: "Test Project", slug: owner.project.slug }, role: "viewer" });
    const members = (await h.json("GET", path(), { token: owner.token })).body.data;
    expect(members.find((m: any) => m.email === "dave@example.com")).toMatchObject({ userId: dave.id, role: "viewer" });
  });

  const badAdds: [string, unknown, string, number, string][] = [
    ["already a member", { email: "dave@example.com", role: "editor" }, "email", 409, "conflict"],
    ["unknown role", { email: "erin@example.com", role: "superuser" }, "role", 400, "invalid_body"],
    ["no role", { email: "erin@example.com" }, "role", 400, "invalid_body"],
    ["bad e-mail", { email: "erin", role: "editor" }, "email", 400, "invalid_body"],
    [
      "a password in the body (no one sets another person's password)",
      { email: "erin@example.com", role: "editor", password: "erin-password-1" },
      "password",
      400,
      "invalid_body",
    ],
  ];
  for (const [name, body, field, status, code] of badAdds) {
    test(`add refused: ${name}`, async () => {
      const r = await h.json("POST", path(), { token: owner.token, body });
      expect(r.status).toBe(status);
      expect(r.body).toMatchObject({ code, field });
      const list = await h.json("GET", path(), { token: owner.token });
      expect(list.body.data.map((m: any) => m.email)).not.toContain("erin@example.com");
      const invites = await h.json("GET", `/v2/projects/${pid}/invitations`, { token: owner.token });
      expect(invites.body.data.map((i: any) => i.email)).not.toContain("erin@example.com");
    });
  }

  test("an invitation token in the accept body is required, and an unknown one is refused", async () => {
    const none = await h.json("POST", "/v2/invitations/accept", { body: {} });
    expect([none.status, none.body]).toEqual([400, { error: "token is the invitation token you were given (inv_...)", code: "invalid_body", field: "token" }]);
    const unknown = await h.json("POST", "/v2/invitations/accept", { body: { token: "inv_nope", password: "whatever-password" } });
    expect(unknown.status).toBe(404);
  });

  test("an editor may read the members but not change them", async () => {
    const login = await h.json("POST", "/v2/user/login", { body: { email: "carol@example.com", password: "carol-password-1" } });
    const token = login.body.accessToken;
    expect((await h.json("GET", path(), { token })).status).toBe(200);
    const add = await h.json("POST", path(), { token, body: { email: "x@example.com", role: "owner" } });
    expect(add.status).toBe(403);
    expect(add.body).toEqual({ error: "Insufficient permissions", required: ["owner", "admin"], current: "editor" });
    const promote = await h.json("PATCH", `${path()}/${carol}`, { token, body: { role: "owner" } });
    expect(promote.status).toBe(403);
  });

  test("changing a role", async () => {
    const r = await h.json("PATCH", `${path()}/${carol}`, { token: owner.token, body: { role: "developer" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ userId: carol, email: "carol@example.com", role: "developer" });
    const bad = await h.json("PATCH", `${path()}/${carol}`, { token: owner.token, body: { role: "king" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "invalid_body", field: "role" });
    const ghost = await h.json("PATCH", `${path()}/${crypto.randomUUID()}`, { token: owner.token, body: { role: "viewer" } });
    expect(ghost.status).toBe(404);
  });

  test("a project cannot set a member's password (the account may belong to other projects)", async () => {
    const r = await h.json("PATCH", `${path()}/${carol}`, { token: owner.token, body: { role: "developer", password: "taken-over-1" } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "invalid_body", field: "password" });
    expect((await h.json("POST", "/v2/user/login", { body: { email: "carol@example.com", password: "taken-over-1" } })).status).toBe(401);
  });

  test("the last owner cannot be demoted or removed; with a second owner they can", async () => {
    const demote = await h.json("PATCH", `${path()}/${owner.user.id}`, { token: owner.token, body: { role: "admin" } });
    expect(demote.status).toBe(409);
    expect(demote.body).toMatchObject({ code: "conflict", field: "role" });
    const remove = await h.json("DELETE", `${path()}/${owner.user.id}`, { token: owner.token });
    expect(remove.status).toBe(409);
    expect(remove.body.code).toBe("conflict");
    expect((await h.json("GET", path(), { token: owner.token })).body.data.find((m: any) => m.userId === owner.user.id).role).toBe("owner");

    expect((await h.json("PATCH", `${path()}/${carol}`, { token: owner.token, body: { role: "owner" } })).status).toBe(200);
    const now = await h.json("PATCH", `${path()}/${owner.user.id}`, { token: owner.token, body: { role: "admin" } });
    expect(now.status).toBe(200);
    expect(now.body.role).toBe("admin");
  });

  test("removing a member takes the project away from them", async () => {
    const dave = (await h.json("GET", path(), { token: owner.token })).body.data.find((m: any) => m.email === "dave@example.com");
    const r = await h.json("DELETE", `${path()}/${dave.userId}`, { token: owner.token });
    expect(r.status).toBe(204);
    const list = await h.json("GET", path(), { token: owner.token });
    expect(list.body.data.map((m: any) => m.email)).toEqual(["owner@example.com", "carol@example.com"]);
    const login = await h.json("POST", "/v2/user/login", { body: { email: "dave@example.com", password: "dave-password-1" } });
    const gone = await h.json("GET", "/v2/models", { token: login.body.accessToken, headers: { "x-svc-project": pid } });
    expect(gone.status).toBe(403);
    expect(gone.body).toEqual(NOT_MEMBER);
    expect((await h.json("DELETE", `${path()}/${dave.userId}`, { token: owner.token })).status).toBe(404);
  });
  // Last in this block: it moves the clock past the owner's session.
  test("an invitation can be withdrawn, expires after 7 days, and is replaced by a new one for the same e-mail", async () => {
    const first = (await h.json("POST", path(), { token: owner.token, body: { email: "fay@example.com", role: "viewer" } })).body.invitation;
    const second = (await h.json("POST", path(), { token: owner.token, body: { email: "fay@example.com", role: "editor" } })).body.invitation;
    const gone = await h.json("POST", "/v2/invitations/accept", { body: { token: first.token, password: "fay-password-1" } });
    expect(gone.status).toBe(404);
    expect((await h.json("DELETE", `/v2/projects/${pid}/invitations/${second.id}`, { token: owner.token })).status).toBe(204);
    expect((await h.json("DELETE", `/v2/projects/${pid}/invitations/${second.id}`, { token: owner.token })).status).toBe(404);
    expect((await h.json("POST", "/v2/invitations/accept", { body: { token: second.token, password: "fay-password-1" } })).status).toBe(404);
    const third = (await h.json("POST", path(), { token: owner.token, body: { email: "fay@example.com", role: "viewer" } })).body.invitation;
    h.clock.advance(7 * 86_400_000);
    const late = await h.json("POST", "/v2/invitations/accept", { body: { token: third.token, password: "fay-password-1" } });
    expect(late.status).toBe(404);
    const fresh = (await h.json("POST", "/v2/user/login", { body: { email: "owner@example.com", password: "owner-password-1" } })).body.accessToken;
    const listed = (await h.json("GET", `/v2/projects/${pid}/invitations`, { token: fresh })).body.data;
    expect(listed.find((i: any) => i.id === third.id).status).toBe("expired");
  });
});
