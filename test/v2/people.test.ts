// Projects and people for the app (issue 27, item 6): pending invitations get a fresh link (copied
// again without mail, mailed again with it), ownership is transferred in one step, anyone may
// leave but the last owner, project names are refused in words, and GET /v2/server says whether
// the server sends mail before anyone signs in.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { memberToken } from "../api/helpers.ts";
import { answerProblems } from "../openapi/answer-check.ts";
import { LAST_OWNER } from "../../src/domain/projects/service.ts";
import { linkIn, startSmtp, type SmtpServer } from "../mail/smtp.ts";

let h: Harness;
let owner: Awaited<ReturnType<typeof withOwner>>;
let pid: string;
afterEach(() => h.close());

async function fresh(over: Parameters<typeof startApp>[0] = {}) {
  h = startApp(over);
  owner = await withOwner(h);
  pid = owner.project.id;
}
/** Access tokens last 24 hours of the test clock: sign in again after moving it by days. */
async function later(ms: number) {
  h.clock.advance(ms);
  owner.token = (await h.json("POST", "/v2/user/login", { body: { email: "owner@example.com", password: "owner-password-1" } })).body.accessToken;
}
const invite = (email: string, role = "editor", token = owner.token) => h.json("POST", `/v2/projects/${pid}/members`, { token, body: { email, role } });
const reissue = (id: string, token = owner.token) => h.json("POST", `/v2/projects/${pid}/invitations/${id}/reissue`, { token });
const members = async () =>
  (await h.json("GET", `/v2/projects/${pid}/members`, { token: owner.token })).body.data as { userId: string; email: string; role: string }[];

describe("invitations: copy the link again (no mail)", () => {
  test("a fresh link for 7 more days; the old link stops working, the new one accepts", async () => {
    await fresh();
    const first = (await invite("new@example.com")).body.invitation;
    await later(3 * 86_400_000);
    const r = await reissue(first.id);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      invitation: { id: first.id, email: "new@example.com", role: "editor", expiresAt: "2026-12-01T12:00:00.000Z", token: r.body.invitation.token },
    });
    expect(r.body.invitation.token).toMatch(/^inv_/);
    expect(r.body.invitation.token).not.toBe(first.token);
    expect(answerProblems(h.capa, "POST", `/v2/projects/${pid}/invitations/${first.id}/reissue`, 200, r.body)).toEqual([]);
    const old = await h.json("POST", "/v2/invitations/accept", { body: { token: first.token, password: "new-password-1" } });
    expect([old.status, old.body.code]).toEqual([404, "invitation_not_found"]);
    const ok = await h.json("POST", "/v2/invitations/accept", { body: { token: r.body.invitation.token, password: "new-password-1" } });
    expect(ok.status).toBe(201);
    // Accepted: no new link.
    const again = await reissue(first.id);
    expect([again.status, again.body]).toEqual([
      409,
      { error: "new@example.com accepted this invitation on 2026-11-24; they are a member already.", code: "invitation_accepted" },
    ]);
  });

  test("an expired invitation gets a new life; an unknown one is 404; only owners reissue an owner's invitation", async () => {
    await fresh();
    const inv = (await invite("late@example.com", "owner")).body.invitation;
    await later(8 * 86_400_000);
    const listed = (await h.json("GET", `/v2/projects/${pid}/invitations`, { token: owner.token })).body.data[0];
    expect(listed.status).toBe("expired");
    const admin = await memberToken(h, owner.token, pid, "admin@example.com", "admin");
    const refused = await reissue(inv.id, admin);
    expect([refused.status, refused.body]).toEqual([403, { error: "Insufficient permissions", required: ["owner"], current: "admin" }]);
    const r = await reissue(inv.id);
    expect([r.status, r.body.invitation.expiresAt]).toEqual([200, "2026-12-06T12:00:00.000Z"]);
    expect((await h.json("GET", `/v2/projects/${pid}/invitations`, { token: owner.token })).body.data.find((x: { id: string }) => x.id === inv.id).status).toBe(
      "pending",
    );
    const ghost = await reissue(crypto.randomUUID());
    expect([ghost.status, ghost.body]).toEqual([404, { error: "No such invitation.", code: "not_found" }]);
    const editor = await memberToken(h, owner.token, pid, "editor@example.com", "editor");
    const byEditor = await reissue(inv.id, editor);
    expect([byEditor.status, byEditor.body]).toEqual([403, { error: "Insufficient permissions", required: ["owner", "admin"], current: "editor" }]);
  });
});

describe("invitations: resend (mail on)", () => {
  let smtp: SmtpServer;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp.close());
  beforeEach(() => smtp.clear());

  test("the invitation is mailed again with a new link; the first mail's link stops working", async () => {
    await fresh({ mail: smtp.settings });
    const inv = (await invite("mailed@example.com")).body.invitation;
    const firstMail = await smtp.next();
    const r = await reissue(inv.id);
    expect(r.body).toEqual({ invitation: { id: inv.id, email: "mailed@example.com", role: "editor", expiresAt: inv.expiresAt, sent: true } });
    const second = await smtp.next();
    expect(second.to).toEqual(["mailed@example.com"]);
    const oldToken = linkIn(firstMail, "/admin/invite").token;
    const newToken = linkIn(second, "/admin/invite").token;
    expect(newToken).not.toBe(oldToken);
    expect((await h.json("POST", "/v2/invitations/accept", { body: { token: oldToken, password: "mailed-password-1" } })).status).toBe(404);
    expect((await h.json("POST", "/v2/invitations/accept", { body: { token: newToken, password: "mailed-password-1" } })).status).toBe(201);
    await h.capa.services.mail?.drain();
  });

  test("GET /v2/server says whether mail is on, without signing in", async () => {
    await fresh({ mail: smtp.settings });
    const on = await h.json("GET", "/v2/server");
    expect([on.status, on.body]).toEqual([200, { mail: true }]);
    expect(answerProblems(h.capa, "GET", "/v2/server", 200, on.body)).toEqual([]);
    h.close();
    await fresh();
    expect((await h.json("GET", "/v2/server")).body).toEqual({ mail: false });
  });
});

describe("transfer ownership", () => {
  test("the owner makes another member owner and becomes admin, in one step", async () => {
    await fresh();
    const editor = await memberToken(h, owner.token, pid, "editor@example.com", "editor");
    const editorId = (await members()).find((m) => m.email === "editor@example.com")!.userId;
    const r = await h.json("POST", `/v2/projects/${pid}/transfer-ownership`, { token: owner.token, body: { userId: editorId } });
    expect(r.status).toBe(200);
    expect(r.body.data.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ["owner@example.com", "admin"],
      ["editor@example.com", "owner"],
    ]);
    expect(answerProblems(h.capa, "POST", `/v2/projects/${pid}/transfer-ownership`, 200, r.body)).toEqual([]);
    // The former owner, now admin, can no longer hand ownership on; the new owner can hand it back.
    const again = await h.json("POST", `/v2/projects/${pid}/transfer-ownership`, { token: owner.token, body: { userId: editorId } });
    expect([again.status, again.body]).toEqual([403, { error: "Insufficient permissions", required: ["owner"], current: "admin" }]);
    const back = await h.json("POST", `/v2/projects/${pid}/transfer-ownership`, { token: editor, body: { userId: owner.user.id } });
    expect(back.body.data.map((m: { role: string }) => m.role)).toEqual(["owner", "admin"]);
  });

  test("refusals: yourself, someone who is not a member, a bad body", async () => {
    await fresh();
    const cases: [unknown, number, Record<string, unknown>][] = [
      [{ userId: owner.user.id }, 400, { error: "userId names you: choose the member who becomes owner", code: "invalid_body", field: "userId" }],
      [{ userId: crypto.randomUUID() }, 404, { error: "No member of this project has that id.", code: "not_found", field: "userId" }],
      [{ userId: "x" }, 400, { error: "userId must be the id of a member of the project", code: "invalid_body", field: "userId" }],
    ];
    for (const [body, status, want] of cases) {
      const r = await h.json("POST", `/v2/projects/${pid}/transfer-ownership`, { token: owner.token, body });
      expect([r.status, r.body]).toEqual([status, want]);
    }
    expect((await members()).map((m) => m.role)).toEqual(["owner"]);
  });
});

describe("leaving and the last owner", () => {
  test("any member may leave; the last owner is refused in words and stays", async () => {
    await fresh();
    const viewer = await memberToken(h, owner.token, pid, "viewer@example.com", "viewer");
    const viewerId = (await members()).find((m) => m.email === "viewer@example.com")!.userId;
    // A viewer cannot remove others, but can leave.
    const other = await h.json("DELETE", `/v2/projects/${pid}/members/${owner.user.id}`, { token: viewer });
    expect(other.status).toBe(403);
    expect((await h.json("DELETE", `/v2/projects/${pid}/members/${viewerId}`, { token: viewer })).status).toBe(204);
    expect((await members()).map((m) => m.email)).toEqual(["owner@example.com"]);
    const last = await h.json("DELETE", `/v2/projects/${pid}/members/${owner.user.id}`, { token: owner.token });
    expect([last.status, last.body]).toEqual([409, { error: LAST_OWNER, code: "conflict" }]);
    expect(LAST_OWNER).toBe("A project needs at least one owner: make another member owner first (Transfer ownership), or delete the project.");
    const demote = await h.json("PATCH", `/v2/projects/${pid}/members/${owner.user.id}`, { token: owner.token, body: { role: "admin" } });
    expect([demote.status, demote.body]).toEqual([409, { error: LAST_OWNER, code: "conflict", field: "role" }]);
    expect((await members()).map((m) => m.role)).toEqual(["owner"]);
  });
});

describe("project names", () => {
  test("empty, blank and 10,000 characters are refused in words, on create and on rename", async () => {
    await fresh();
    for (const name of ["", "   ", "x".repeat(10_000)]) {
      const made = await h.json("POST", "/v2/projects", { token: owner.token, body: { name } });
      expect([made.status, made.body]).toEqual([400, { error: "name must be 1 to 120 characters", code: "invalid_body", field: "name" }]);
      const renamed = await h.json("PATCH", `/v2/projects/${pid}`, { token: owner.token, body: { name } });
      expect([renamed.status, renamed.body]).toEqual([400, { error: "name must be 1 to 120 characters", code: "invalid_body", field: "name" }]);
    }
    expect((await h.json("GET", `/v2/projects/${pid}`, { token: owner.token })).body.name).toBe("Test Project");
    const ok = await h.json("PATCH", `/v2/projects/${pid}`, { token: owner.token, body: { name: "x".repeat(120) } });
    expect(ok.status).toBe(200);
  });
});
