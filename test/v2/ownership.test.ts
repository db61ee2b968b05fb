// Ownership is the owner's alone (decisions.md section 2; issue 15 items 5 and 9): only an owner
// grants or removes `owner` and deletes the project, the last owner stays; and who may create
// projects over /v2 is CAPA_PROJECT_CREATORS (the operator only by default).
import { afterEach, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { memberToken } from "../api/helpers.ts";
import { LAST_OWNER } from "../../src/domain/projects/service.ts";

let h: Harness;
afterEach(() => h.close());

const REFUSED = (current: string) => ({ error: "Insufficient permissions", required: ["owner"], current });

async function project() {
  h = startApp();
  const owner = await withOwner(h);
  const pid = owner.project.id;
  const admin = await memberToken(h, owner.token, pid, "admin@example.com", "admin");
  const members = (await h.json("GET", `/v2/projects/${pid}/members`, { token: owner.token })).body.data as { userId: string; email: string }[];
  const idOf = (email: string) => members.find((m) => m.email === email)!.userId;
  return { owner, pid, admin, ownerId: owner.user.id, adminId: idOf("admin@example.com") };
}

describe("ownership", () => {
  test("an admin cannot make themselves owner, demote or remove the owner, or delete the project; nothing changes", async () => {
    const { owner, pid, admin, ownerId, adminId } = await project();
    const before = (await h.json("GET", `/v2/projects/${pid}/members`, { token: owner.token })).body;
    const tries = [
      await h.json("PATCH", `/v2/projects/${pid}/members/${adminId}`, { token: admin, body: { role: "owner" } }),
      await h.json("PATCH", `/v2/projects/${pid}/members/${ownerId}`, { token: admin, body: { role: "viewer" } }),
      await h.json("DELETE", `/v2/projects/${pid}/members/${ownerId}`, { token: admin }),
      await h.json("POST", `/v2/projects/${pid}/members`, {
        token: admin,
        body: { email: "new-owner@example.com", role: "owner" },
      }),
    ];
    expect(tries.map((r) => [r.status, r.body])).toEqual(tries.map(() => [403, REFUSED("admin")]));
    const del = await h.json("DELETE", `/v2/projects/${pid}`, { token: admin, body: { slug: owner.project.slug } });
    expect([del.status, del.body]).toEqual([403, { error: "Insufficient permissions", required: ["owner"], current: "admin" }]);
    expect((await h.json("GET", `/v2/projects/${pid}/members`, { token: owner.token })).body).toEqual(before);
  });

  test("an owner grants and takes back ownership; the last owner can be neither demoted nor removed", async () => {
    const { owner, pid, admin, ownerId, adminId } = await project();
    const up = await h.json("PATCH", `/v2/projects/${pid}/members/${adminId}`, { token: owner.token, body: { role: "owner" } });
    expect([up.status, up.body.role]).toEqual([200, "owner"]);
    // Now an owner, the former admin may demote the first owner; then it is the last owner.
    const down = await h.json("PATCH", `/v2/projects/${pid}/members/${ownerId}`, { token: admin, body: { role: "admin" } });
    expect([down.status, down.body.role]).toEqual([200, "admin"]);
    const self = await h.json("PATCH", `/v2/projects/${pid}/members/${adminId}`, { token: admin, body: { role: "editor" } });
    expect([self.status, self.body]).toEqual([409, { error: LAST_OWNER, code: "conflict", field: "role" }]);
    const gone = await h.json("DELETE", `/v2/projects/${pid}/members/${adminId}`, { token: admin });
    expect([gone.status, gone.body]).toEqual([409, { error: LAST_OWNER, code: "conflict" }]);
  });
});

describe("who may create projects", () => {
  test("by default only the operator (the first account) creates projects over /v2", async () => {
    const { owner, pid } = await project();
    const editor = await memberToken(h, owner.token, pid, "editor@example.com", "editor");
    const r = await h.json("POST", "/v2/projects", { token: editor, body: { name: "Mine" } });
    // `current` is the role in the person's current project; an invited member has opened none yet.
    expect([r.status, r.body]).toEqual([403, { error: "Insufficient permissions", required: ["operator"], current: null }]);
    expect((await h.json("GET", "/v2/projects", { token: editor })).body.data).toHaveLength(1);
    expect((await h.json("POST", "/v2/projects", { token: owner.token, body: { name: "Second" } })).status).toBe(201);
  });

  test("CAPA_PROJECT_CREATORS=anyone lets every signed-in person create projects", async () => {
    h = startApp({ projectCreators: "anyone" });
    const owner = await withOwner(h);
    const editor = await memberToken(h, owner.token, owner.project.id, "editor@example.com", "editor");
    const r = await h.json("POST", "/v2/projects", { token: editor, body: { name: "Mine" } });
    expect([r.status, r.body.role]).toEqual([201, "owner"]);
  });
});
