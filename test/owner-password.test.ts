// The first start's owner password hashed ahead (src/domain/owner-password.ts): src/main.ts starts
// the hash while the server loads, and bootstrap takes it only when it is of the password this
// start uses. The spawned first starts in startup.test.ts sign in with it end to end.
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { bootstrap } from "../src/domain/bootstrap.ts";
import { hashOwnerPassword } from "../src/domain/owner-password.ts";
import { findUserByEmail } from "../src/domain/users/service.ts";
import { startApp, type Harness } from "./harness.ts";

let h: Harness;
afterEach(() => {
  h.capa.close();
  rmSync(h.dir, { recursive: true, force: true });
});

const owner = () => findUserByEmail(h.capa.services, "owner@capa.local")!;

describe("the owner's password hashed ahead", () => {
  test("is answered only while the data directory has no control file", async () => {
    h = startApp({ demo: false });
    expect(hashOwnerPassword({ dataDir: h.dir, adminPassword: "chosen-password-1" })).toBeNull();
    const fresh = `${h.dir}/empty`;
    const ahead = await hashOwnerPassword({ dataDir: fresh, adminPassword: "chosen-password-1" })!;
    expect([ahead.password, ahead.generated, await Bun.password.verify("chosen-password-1", ahead.hash)]).toEqual(["chosen-password-1", false, true]);
    const made = await hashOwnerPassword({ dataDir: fresh, adminPassword: null })!;
    expect([made.password.length, made.generated, await Bun.password.verify(made.password, made.hash)]).toEqual([20, true, true]);
  });

  test("a generated password hashed ahead becomes the owner's, stored as hashed", async () => {
    h = startApp({ demo: false, adminPassword: null });
    const ahead = { password: "generatedAhead12345x", generated: true, hash: await Bun.password.hash("generatedAhead12345x") };
    const first = bootstrap(h.capa.services, ahead)!;
    expect(first.owner).toEqual({ email: "owner@capa.local", password: "generatedAhead12345x" });
    expect(owner().passwordHash).toBe(ahead.hash);
  });

  test("a hash of another password than CAPA_ADMIN_PASSWORD is not used", async () => {
    h = startApp({ demo: false, adminPassword: "configured-password-1" });
    const stale = { password: "some-other-password", generated: false, hash: await Bun.password.hash("some-other-password") };
    expect(bootstrap(h.capa.services, stale)!.owner).toEqual({ email: "owner@capa.local", password: null });
    expect(owner().passwordHash).not.toBe(stale.hash);
    expect(await Bun.password.verify("configured-password-1", owner().passwordHash!)).toBe(true);
  });

  test("a password hashed ahead still obeys the rules: too short is refused and no owner is made", async () => {
    h = startApp({ demo: false, adminPassword: "short" });
    const ahead = { password: "short", generated: false, hash: await Bun.password.hash("short") };
    expect(() => bootstrap(h.capa.services, ahead)).toThrow("password must be 8 to 200 characters");
    expect(findUserByEmail(h.capa.services, "owner@capa.local")).toBeUndefined();
  });
});
