// The command line against a temp data directory: the happy path an operator follows (account,
// project, key), then a table of bad invocations that must each fail with one line and exit 1.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runCli, tempDataDir } from "./spawn.ts";

const data = tempDataDir();
const env = { CAPA_DATA_DIR: data.dir };
afterAll(() => data.remove());

describe("capa CLI", () => {
  beforeAll(async () => {
    const user = await runCli(["user", "add", "--email", "ops@example.com", "--password", "ops-password-1"], env);
    expect(user).toMatchObject({ code: 0, stderr: "" });
    const project = await runCli(["project", "add", "--name", "Shop", "--slug", "shop", "--owner", "ops@example.com"], env);
    expect(project.code).toBe(0);
    expect(project.stdout).toContain("slug shop");
  });

  test("key mint prints a production secret alone on stdout", async () => {
    const r = await runCli(["key", "mint", "--project", "shop", "--preset", "read_only", "--name", "site"], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^svc_live_[0-9A-Za-z]{32}\n$/);
    expect(r.stderr).toContain("not shown again");
  });

  test("key mint with scopes and a development environment prints a test secret", async () => {
    const r = await runCli(["key", "mint", "--project", "shop", "--scopes", "instance:read,model:read", "--environment", "development"], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^svc_test_[0-9A-Za-z]{32}\n$/);
  });

  test("project subscription turns the flag off", async () => {
    const r = await runCli(["project", "subscription", "--project", "shop", "--active", "false"], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("inactive");
  });

  test("user password sets an account's password; the old one and every session from before stop working", async () => {
    const { createApp } = await import("../src/app.ts");
    const { testConfig } = await import("../src/config.ts");
    const { login, refresh } = await import("../src/domain/users/sessions.ts");
    const { authenticatePerson } = await import("../src/domain/access/authenticate.ts");
    const before = createApp(testConfig(data.dir));
    const session = await login(before.services, "ops@example.com", "ops-password-1");
    before.close();
    const r = await runCli(["user", "password", "--email", "ops@example.com", "--password", "ops-password-2"], env);
    expect(r).toMatchObject({ code: 0, stdout: "Set the password of ops@example.com\n", stderr: "" });
    const capa = createApp(testConfig(data.dir));
    try {
      expect(Object.keys(await login(capa.services, "ops@example.com", "ops-password-2"))).toEqual(["accessToken", "refreshToken"]);
      await expect(login(capa.services, "ops@example.com", "ops-password-1")).rejects.toMatchObject({ code: "invalid_credentials" });
      // A reset by the operator is for a lost or stolen password: the sessions from before end.
      const old = new Headers({ authorization: `Bearer ${session.accessToken}` });
      await expect(authenticatePerson(capa.services, old)).rejects.toMatchObject({ code: "invalid_token" });
      await expect(refresh(capa.services, session.refreshToken)).rejects.toMatchObject({ code: "invalid_token" });
    } finally {
      capa.close();
    }
  });

  test("help lists every command and exits 0", async () => {
    const r = await runCli(["help"], env);
    expect(r.code).toBe(0);
    for (const c of ["serve", "user add", "user password", "project add", "key mint", "project subscription", "restore"])
      expect(r.stdout).toContain(`capa ${c}`);
  });

  // Each bad invocation: exit 1, nothing on stdout, exactly one line on stderr.
  const refused: { name: string; args: string[]; env?: Record<string, string>; says: string }[] = [
    { name: "no command", args: [], says: "no command" },
    { name: "unknown command", args: ["frobnicate"], says: 'unknown command "frobnicate"' },
    { name: "unknown option", args: ["user", "add", "--email", "a@b.co", "--colour", "red"], says: "unknown option --colour" },
    { name: "missing flag", args: ["user", "add", "--email", "a@b.co"], says: "--password is required" },
    { name: "flag without value", args: ["user", "add", "--email"], says: "--email needs a value" },
    { name: "stray argument", args: ["user", "add", "extra", "--email", "a@b.co", "--password", "long-enough"], says: 'unexpected argument "extra"' },
    { name: "bad e-mail", args: ["user", "add", "--email", "nope", "--password", "long-enough"], says: "e-mail address" },
    { name: "short password", args: ["user", "add", "--email", "c@d.co", "--password", "short"], says: "8 to 200 characters" },
    { name: "existing account", args: ["user", "add", "--email", "ops@example.com", "--password", "long-enough"], says: "already exists" },
    {
      name: "password of an unknown account",
      args: ["user", "password", "--email", "ghost@example.com", "--password", "long-enough"],
      says: "no account with e-mail ghost@example.com",
    },
    { name: "unknown owner", args: ["project", "add", "--name", "X", "--owner", "ghost@example.com"], says: "no account with e-mail ghost@example.com" },
    { name: "slug taken", args: ["project", "add", "--name", "X", "--slug", "shop", "--owner", "ops@example.com"], says: "(--slug)" },
    { name: "unknown project", args: ["key", "mint", "--project", "nowhere", "--preset", "read_only"], says: 'no project with id or slug "nowhere"' },
    { name: "no grant", args: ["key", "mint", "--project", "shop"], says: "exactly one of --scopes, --preset or --permission" },
    { name: "two grants", args: ["key", "mint", "--project", "shop", "--preset", "read_only", "--permission", "read"], says: "exactly one of" },
    { name: "person-only scope", args: ["key", "mint", "--project", "shop", "--scopes", "api_key:read"], says: "No key can hold this scope" },
    {
      name: "bad environment",
      args: ["key", "mint", "--project", "shop", "--preset", "read_only", "--environment", "staging"],
      says: "production or development",
    },
    { name: "bad active flag", args: ["project", "subscription", "--project", "shop", "--active", "maybe"], says: "--active must be true or false" },
    { name: "restore without replica", args: ["restore"], says: "restore needs CAPA_REPLICA_URL" },
    {
      name: "bad configuration",
      args: ["user", "add", "--email", "e@f.co", "--password", "long-enough"],
      env: { CAPA_DEMO: "perhaps" },
      says: "CAPA_DEMO must be one of",
    },
  ];

  test.each(refused)("refuses: $name", async ({ args, env: extra, says }) => {
    const r = await runCli(args, { ...env, ...extra });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toStartWith("capa: ");
    expect(r.stderr).toContain(says);
  });
});
