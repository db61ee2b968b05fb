// CAPA_PASSWORD_MEMORY_KIB and CAPA_PASSWORD_TIME_COST (docs/configuration.md): passwords set
// through the server are argon2id at the configured cost, a hash of another cost still signs in,
// an unknown e-mail is checked against a hash of the same cost, and a bad value refuses to start.
import { afterEach, describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { startApp, type Harness } from "../harness.ts";

let h: Harness | null = null;
afterEach(() => h?.close());

const storedHash = (email: string) =>
  (h!.capa.services.control.sqlite.query("SELECT password_hash AS hash FROM users WHERE email = ?").get(email) as { hash: string }).hash;

describe("the password cost", () => {
  test("a password set through the server is hashed at the configured cost and signs in", async () => {
    h = startApp({ passwordCost: { memoryKiB: 2048, time: 3 } });
    createUser(h.capa.services, { email: "ada@example.com", password: "right-password-1" });
    expect(storedHash("ada@example.com").startsWith("$argon2id$v=19$m=2048,t=3,p=1$")).toBe(true);
    const ok = await h.json("POST", "/v2/user/login", { body: { email: "ada@example.com", password: "right-password-1" } });
    expect(ok.status).toBe(200);
    expect(h.capa.services.passwords.dummy().startsWith("$argon2id$v=19$m=2048,t=3,p=1$")).toBe(true);
    const unknown = await h.json("POST", "/v2/user/login", { body: { email: "nobody@example.com", password: "right-password-1" } });
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 401, body: { error: "Invalid credentials" } });
  });

  test("a hash stored at another cost still signs in after the cost changes", async () => {
    h = startApp({ passwordCost: { memoryKiB: 1024, time: 1 } });
    const old = Bun.password.hashSync("right-password-1", { algorithm: "argon2id", memoryCost: 4096, timeCost: 2 });
    createUser(h.capa.services, { email: "ada@example.com", password: "right-password-1", passwordHash: old });
    expect(storedHash("ada@example.com")).toBe(old);
    expect((await h.json("POST", "/v2/user/login", { body: { email: "ada@example.com", password: "right-password-1" } })).status).toBe(200);
  });

  test("the defaults are Bun's argon2id defaults; a value out of range refuses to start, naming the setting", () => {
    expect(loadConfig({}).passwordCost).toEqual({ memoryKiB: 65536, time: 2 });
    expect(loadConfig({ CAPA_PASSWORD_MEMORY_KIB: "8192", CAPA_PASSWORD_TIME_COST: "3" }).passwordCost).toEqual({ memoryKiB: 8192, time: 3 });
    expect(() => loadConfig({ CAPA_PASSWORD_MEMORY_KIB: "512" })).toThrow(
      new ConfigError("CAPA_PASSWORD_MEMORY_KIB must be between 1024 and 4194304, got 512"),
    );
    expect(() => loadConfig({ CAPA_PASSWORD_TIME_COST: "0" })).toThrow(new ConfigError("CAPA_PASSWORD_TIME_COST must be between 1 and 20, got 0"));
    expect(() => loadConfig({ CAPA_PASSWORD_TIME_COST: "two" })).toThrow(new ConfigError('CAPA_PASSWORD_TIME_COST must be a whole number, got "two"'));
  });
});
