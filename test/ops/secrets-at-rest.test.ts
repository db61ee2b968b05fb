// Hardening item 7 (secrets at rest): the JWT signing secret in control.sqlite and each webhook
// signing secret in its project file are sealed with the data directory's secret.key, so the
// SQLite files (and so their replica) hold none of them in the clear. Values an older version
// stored in the clear keep working and are sealed in place; a key that does not open them is
// handled without a 500.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type Harness } from "../harness.ts";
import { SecretBox } from "../../src/infra/secret-box.ts";
import { createHook, deliver, postModel, publishPost, Receiver, signIn, verifyAt, webhookApp, type Certs } from "../webhooks/receiver.ts";

/** Every byte of a SQLite file with its -wal, as one string, to search for a secret. */
function fileBytes(path: string): string {
  return [path, `${path}-wal`]
    .filter(existsSync)
    .map((p) => readFileSync(p).toString("latin1"))
    .join("");
}

const projectFile = (h: Harness, projectId: string) => join(h.dir, "projects", `${projectId}.sqlite`);

describe("sealed at rest", () => {
  let h: Harness;
  let c: Certs;
  let rx: Receiver;
  let token: string;
  let projectId: string;
  beforeAll(async () => {
    let project: { id: string };
    ({ h, c, token, project } = await webhookApp());
    projectId = project.id;
    rx = new Receiver(c);
    await postModel(h, token);
  });
  afterAll(() => {
    rx.stop();
    h.close();
  });

  test("secret.key is 32 random bytes in base64, 0600", () => {
    const key = readFileSync(join(h.dir, "secret.key"), "utf8");
    expect(key).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
    expect(Buffer.from(key.trim(), "base64")).toHaveLength(32);
  });

  test("the JWT secret is stored sealed; its clear value is in no byte of control.sqlite", () => {
    const db = new Database(join(h.dir, "control.sqlite"), { readonly: true });
    const row = db.query("SELECT value FROM server_secrets WHERE name = 'jwt'").get() as { value: string };
    db.close();
    expect(row.value).toMatch(/^sealed:v1::[A-Za-z0-9+/]+=*$/);
    const clear = h.capa.services.secretBox.open(row.value, "server-secret:jwt");
    expect(clear).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(fileBytes(join(h.dir, "control.sqlite")).includes(clear)).toBe(false);
  });

  test("a webhook secret is stored sealed with its display prefix; deliveries still verify with the standardwebhooks library", async () => {
    const hook = await createHook(h, token, { url: rx.url("/sealed"), events: ["instance.published"] });
    expect(hook.secret).toMatch(/^whsec_/);
    expect((await h.json("GET", `/v2/webhooks/${hook.id}`, { token })).body.secretPrefix).toBe(hook.secret.slice(0, 10));
    const rot = await h.json("POST", `/v2/webhooks/${hook.id}/rotate-secret`, { token, body: { graceHours: 1 } });
    expect(rot.status).toBe(200);
    const db = new Database(projectFile(h, projectId), { readonly: true });
    const row = db.query("SELECT secret, previous_secret AS previous FROM webhook_endpoints WHERE id = ?").get(hook.id) as { secret: string; previous: string };
    db.close();
    expect(row.secret.startsWith(`sealed:v1:${rot.body.secret.slice(0, 10)}:`)).toBe(true);
    expect(row.previous.startsWith(`sealed:v1:${hook.secret.slice(0, 10)}:`)).toBe(true);
    const bytes = fileBytes(projectFile(h, projectId));
    for (const s of [hook.secret, rot.body.secret]) {
      expect(bytes.includes(s)).toBe(false);
      expect(bytes.includes(s.slice(6))).toBe(false);
    }
    await publishPost(h, token, "Sealed");
    await deliver(h);
    const [r] = rx.on("/sealed");
    expect(r!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(() => verifyAt(rot.body.secret, r!, h.clock.now())).not.toThrow();
    expect(() => verifyAt(hook.secret, r!, h.clock.now())).not.toThrow();
  });
});

describe("clear values of an older version, and a key that does not fit", () => {
  test("a webhook secret an older version stored in the clear signs as before and is sealed at the first send", async () => {
    const { h, c, token, project } = await webhookApp();
    const rx = new Receiver(c);
    try {
      await postModel(h, token);
      const hook = await createHook(h, token, { url: rx.url("/legacy"), events: ["instance.published"] });
      const dir = h.dir;
      h.capa.close();
      const legacy = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/Q/XgBl6i2A=";
      const db = new Database(join(dir, "projects", `${project.id}.sqlite`));
      db.query("UPDATE webhook_endpoints SET secret = ? WHERE id = ?").run(legacy, hook.id);
      db.close();
      const h2 = startApp({ webhookAllowPrivate: true, webhookCaFile: c.caFile }, dir);
      try {
        const t2 = await signIn(h2);
        expect((await h2.json("GET", `/v2/webhooks/${hook.id}`, { token: t2 })).body.secretPrefix).toBe(legacy.slice(0, 10));
        await publishPost(h2, t2, "Legacy");
        await deliver(h2);
        const [r] = rx.on("/legacy");
        expect(() => verifyAt(legacy, r!, h2.clock.now())).not.toThrow();
        const stored = h2.capa.services.projects.get(project.id).sqlite.query("SELECT secret FROM webhook_endpoints WHERE id = ?").get(hook.id) as {
          secret: string;
        };
        expect(stored.secret.startsWith(`sealed:v1:${legacy.slice(0, 10)}:`)).toBe(true);
        expect(h2.capa.services.secretBox.open(stored.secret, "webhook-secret")).toBe(legacy);
      } finally {
        h2.close();
      }
    } finally {
      rx.stop();
    }
  });

  test("a JWT secret in the clear is sealed in place at start and keeps signing; a different secret.key replaces it", async () => {
    let h = startApp();
    const dir = h.dir;
    h.capa.close();
    const db = new Database(join(dir, "control.sqlite"));
    db.query("UPDATE server_secrets SET value = 'an-older-clear-jwt-secret' WHERE name = 'jwt'").run();
    db.close();
    h = startApp({}, dir);
    const read = () => {
      const d = new Database(join(dir, "control.sqlite"), { readonly: true });
      const v = (d.query("SELECT value FROM server_secrets WHERE name = 'jwt'").get() as { value: string }).value;
      d.close();
      return v;
    };
    const sealed = read();
    expect(SecretBox.isSealed(sealed)).toBe(true);
    expect(h.capa.services.secretBox.open(sealed, "server-secret:jwt")).toBe("an-older-clear-jwt-secret");
    h.capa.close();
    // The data directory comes back without its key file: the JWT secret is made anew.
    writeFileSync(join(dir, "secret.key"), `${Buffer.alloc(32, 7).toString("base64")}\n`, { mode: 0o600 });
    h = startApp({}, dir);
    try {
      const now = read();
      expect(now).not.toBe(sealed);
      expect(h.capa.services.secretBox.open(now, "server-secret:jwt")).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    } finally {
      h.close();
    }
  });

  test("a webhook secret sealed with another key: the attempt is not sent and says why; rotating mends it", async () => {
    const { h, c, token } = await webhookApp();
    const rx = new Receiver(c);
    try {
      await postModel(h, token);
      const hook = await createHook(h, token, { url: rx.url("/lost"), events: ["instance.published"] });
      const dir = h.dir;
      h.capa.close();
      writeFileSync(join(dir, "secret.key"), `${Buffer.alloc(32, 9).toString("base64")}\n`, { mode: 0o600 });
      const h2 = startApp({ webhookAllowPrivate: true, webhookCaFile: c.caFile }, dir);
      try {
        const t2 = await signIn(h2);
        await publishPost(h2, t2, "Lost key");
        await deliver(h2);
        expect(rx.on("/lost")).toHaveLength(0);
        const [d] = (await h2.json("GET", `/v2/webhooks/${hook.id}/deliveries`, { token: t2 })).body.data;
        expect(d.attempts[0]).toMatchObject({
          statusCode: null,
          succeeded: false,
          error: "Not sent: the signing secret does not open with this data directory's secret.key; put the original key file back or rotate the secret.",
        });
        const rot = await h2.json("POST", `/v2/webhooks/${hook.id}/rotate-secret`, { token: t2, body: { graceHours: 0 } });
        expect(rot.status).toBe(200);
        await publishPost(h2, t2, "Mended");
        await deliver(h2);
        const got = rx.on("/lost");
        expect(got).toHaveLength(1);
        expect(() => verifyAt(rot.body.secret, got[0]!, h2.clock.now())).not.toThrow();
      } finally {
        h2.close();
      }
    } finally {
      rx.stop();
    }
  });
});
