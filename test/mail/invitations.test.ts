// Invitations on a server that sends mail (issue 24 item 4; decisions.md sections 2 and 15): the
// invitation is only mailed, so the inviting admin never holds a token and cannot create the
// account of an address that is not theirs. A real SMTP server receives the mail; its link accepts.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { createProject } from "../../src/domain/projects/service.ts";
import { linkIn, MAIL_FROM, startSmtp, type SmtpServer } from "./smtp.ts";

const API = "http://127.0.0.1:3000";
let smtp: SmtpServer;
let h: Harness;
let owner: Awaited<ReturnType<typeof withOwner>>;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.close());
beforeEach(async () => {
  smtp.clear();
  h = startApp({ mail: smtp.settings });
  owner = await withOwner(h);
});
afterEach(async () => {
  await h.capa.services.mail?.drain();
  h.close();
});

const outbox = () => h.capa.services.control.sqlite.query("SELECT kind, recipient FROM mail_outbox").all();
const invite = (body: Record<string, unknown>, token = owner.token, projectId = owner.project.id) =>
  h.json("POST", `/v2/projects/${projectId}/members`, { token, body });

describe("an invitation on a server that sends mail", () => {
  test("is answered without a token, and mailed to the address with a link that accepts it", async () => {
    const r = await invite({ email: "New.Hire@x.test", role: "editor" });
    expect([r.status, r.body]).toEqual([
      201,
      { invitation: { id: r.body.invitation.id, email: "new.hire@x.test", role: "editor", expiresAt: "2026-11-28T12:00:00.000Z", sent: true } },
    ]);
    const listed = await h.json("GET", `/v2/projects/${owner.project.id}/invitations`, { token: owner.token });
    expect(JSON.stringify(listed.body)).not.toContain("inv_");

    const mail = await smtp.next();
    expect([mail.to, mail.from, mail.subject]).toEqual([["new.hire@x.test"], MAIL_FROM, "You are invited to Test Project on Capa"]);
    const { link, token } = linkIn(mail, "/admin/invite");
    expect(link).toBe(`${API}/admin/invite?token=${token}`);
    expect(mail.text).toBe(
      [
        `owner@example.com invited you to the project "Test Project" on Capa (${API}) as editor.`,
        "",
        "To accept, open this link (it works once, until 2026-11-28):",
        link,
        "",
        "If this address has no Capa account yet, you choose its password there. If you did not expect this mail, ignore it.",
        "",
      ].join("\n"),
    );
    // The link's token creates the account with the password its holder chooses.
    const accepted = await h.json("POST", "/v2/invitations/accept", { body: { token, password: "new-hire-password-1" } });
    expect([accepted.status, Object.keys(accepted.body).sort()]).toEqual([201, ["accessToken", "refreshToken"]]);
    const members = await h.json("GET", `/v2/projects/${owner.project.id}/members`, { token: owner.token });
    expect(members.body.data.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ["owner@example.com", "owner"],
      ["new.hire@x.test", "editor"],
    ]);
    expect(outbox()).toEqual([]);
    // Only the SHA-256 of the token is kept.
    const stored = h.capa.services.control.sqlite.query("SELECT token_hash FROM invitations").get() as { token_hash: string };
    expect(stored.token_hash).toBe(new Bun.CryptoHasher("sha256").update(token).digest("hex"));
  });

  test("the squatting hole is closed: an admin of another project cannot take the account of an address she invites", async () => {
    // Mallory administers project B and invites the address of someone who has no account yet.
    const mallory = createUser(h.capa.services, { email: "mallory@example.com", password: "mallory-password-1" });
    const b = createProject(h.capa.services, { name: "Project B", slug: "project-b", ownerId: owner.user.id });
    h.capa.services.control.sqlite.run("INSERT INTO memberships (project_id, user_id, role, created_at) VALUES (?, ?, 'admin', ?)", [
      b.id,
      mallory.id,
      "2026-11-21T12:00:00.000Z",
    ]);
    const asMallory = (await h.json("POST", "/v2/user/login", { body: { email: "mallory@example.com", password: "mallory-password-1" } })).body.accessToken;
    const r = await invite({ email: "new.hire@x.test", role: "viewer" }, asMallory, b.id);
    expect(r.status).toBe(201);
    // She holds no token: not in the answer, not in the list; so she cannot accept with a password of hers.
    expect(r.body.invitation.token).toBeUndefined();
    expect(JSON.stringify((await h.json("GET", `/v2/projects/${b.id}/invitations`, { token: asMallory })).body)).not.toContain("inv_");
    // The mail goes to the address; its holder creates the account.
    const forB = linkIn(await smtp.next(), "/admin/invite").token;
    const hire = await h.json("POST", "/v2/invitations/accept", { body: { token: forB, password: "real-hire-password-1" } });
    expect(hire.status).toBe(201);
    // Project A's owner invites the same person later: they accept as the account they made.
    await invite({ email: "new.hire@x.test", role: "editor" });
    const forA = linkIn(await smtp.next(), "/admin/invite").token;
    const joined = await h.json("POST", "/v2/invitations/accept", { token: hire.body.accessToken, body: { token: forA } });
    expect([joined.status, joined.body]).toEqual([200, { project: { id: owner.project.id, name: "Test Project", slug: owner.project.slug }, role: "editor" }]);
  });

  test("an address that has an account is mailed too (no answer tells whether it has one); its holder accepts signed in", async () => {
    createUser(h.capa.services, { email: "dana@example.com", password: "dana-password-1" });
    const r = await invite({ email: "dana@example.com", role: "viewer", send: true });
    expect(r.body.invitation).toEqual({
      id: r.body.invitation.id,
      email: "dana@example.com",
      role: "viewer",
      expiresAt: "2026-11-28T12:00:00.000Z",
      sent: true,
    });
    const { token } = linkIn(await smtp.next(), "/admin/invite");
    const asDana = (await h.json("POST", "/v2/user/login", { body: { email: "dana@example.com", password: "dana-password-1" } })).body.accessToken;
    expect((await h.json("POST", "/v2/invitations/accept", { token: asDana, body: { token } })).status).toBe(200);
  });

  test("inviting again replaces the invitation: only the newest mail's link works", async () => {
    await invite({ email: "erin@x.test", role: "viewer" });
    const first = linkIn(await smtp.next(), "/admin/invite").token;
    await invite({ email: "erin@x.test", role: "editor" });
    const second = linkIn(await smtp.next(), "/admin/invite").token;
    const old = await h.json("POST", "/v2/invitations/accept", { body: { token: first, password: "erin-password-1" } });
    expect([old.status, old.body.code]).toEqual([404, "invitation_not_found"]);
    expect((await h.json("POST", "/v2/invitations/accept", { body: { token: second, password: "erin-password-1" } })).status).toBe(201);
  });

  test("an invitation withdrawn before its mail went out is not sent", async () => {
    smtp.refusing = true;
    const r = await invite({ email: "fay@x.test", role: "viewer" });
    await h.capa.services.mail!.drain();
    expect(outbox()).toEqual([{ kind: "invitation", recipient: "fay@x.test" }]);
    expect((await h.json("DELETE", `/v2/projects/${owner.project.id}/invitations/${r.body.invitation.id}`, { token: owner.token })).status).toBe(204);
    smtp.refusing = false;
    const before = smtp.inbox.length;
    h.clock.advance(60_000);
    await h.capa.jobs.runNow("mail");
    expect([outbox(), smtp.inbox.length]).toEqual([[], before]);
  });

  test("send: false is refused, as is a send that is not a boolean; nothing is stored or mailed", async () => {
    const before = smtp.inbox.length;
    const no = await invite({ email: "gus@x.test", role: "viewer", send: false });
    expect([no.status, no.body]).toEqual([
      400,
      {
        error: "This server mails every invitation, so that only the holder of the address can accept it; leave send out or set it to true",
        code: "invalid_body",
        field: "send",
      },
    ]);
    const odd = await invite({ email: "gus@x.test", role: "viewer", send: "yes" });
    expect([odd.status, odd.body]).toEqual([400, { error: "send must be true (mail the invitation) or false", code: "invalid_body", field: "send" }]);
    expect((await h.json("GET", `/v2/projects/${owner.project.id}/invitations`, { token: owner.token })).body).toEqual({ data: [] });
    await h.capa.services.mail!.drain();
    expect([outbox(), smtp.inbox.length]).toEqual([[], before]);
  });
});

describe("an invitation on a server without mail", () => {
  let plain: Harness;
  beforeAll(() => {
    plain = startApp();
  });
  afterAll(() => plain.close());

  test("send: true is 400 mail_not_configured and stores nothing; without send the token is shown as before", async () => {
    const o = await withOwner(plain);
    const r = await plain.json("POST", `/v2/projects/${o.project.id}/members`, { token: o.token, body: { email: "hal@x.test", role: "viewer", send: true } });
    expect([r.status, r.body]).toEqual([
      400,
      { error: "This server sends no mail: its operator has not set CAPA_SMTP_URL and CAPA_MAIL_FROM.", code: "mail_not_configured" },
    ]);
    expect((await plain.json("GET", `/v2/projects/${o.project.id}/invitations`, { token: o.token })).body).toEqual({ data: [] });
    const shown = await plain.json("POST", `/v2/projects/${o.project.id}/members`, { token: o.token, body: { email: "hal@x.test", role: "viewer" } });
    expect([shown.status, Object.keys(shown.body.invitation)]).toEqual([201, ["id", "email", "role", "expiresAt", "token"]]);
    const page = await plain.req("GET", "/docs/errors/mail_not_configured");
    expect(await page.text()).toContain("<dt>Status</dt><dd>400</dd>");
  });
});
