import { describe, expect, test } from "bun:test";
import { DEFAULT_PASSWORD_COST, Passwords } from "./passwords.ts";

describe("password hashes", () => {
  test("a hash names argon2id and the configured cost, and verifies only its password", async () => {
    const p = new Passwords({ memoryKiB: 1024, time: 1 });
    const hash = p.hashSync("right-password-1");
    expect(hash.startsWith("$argon2id$v=19$m=1024,t=1,p=1$")).toBe(true);
    expect(await p.verify("right-password-1", hash)).toBe(true);
    expect(await p.verify("wrong-password-1", hash)).toBe(false);
    expect((await p.hash("right-password-1")).startsWith("$argon2id$v=19$m=1024,t=1,p=1$")).toBe(true);
  });

  test("the unknown account's hash has the cost of a real one, and is made once", () => {
    const p = new Passwords({ memoryKiB: 2048, time: 1 });
    const dummy = p.dummy();
    expect(dummy.startsWith("$argon2id$v=19$m=2048,t=1,p=1$")).toBe(true);
    expect(p.dummy()).toBe(dummy);
    expect(new Passwords(DEFAULT_PASSWORD_COST).dummy().startsWith("$argon2id$v=19$m=65536,t=2,p=1$")).toBe(true);
  });

  test("a hash made at another cost still verifies", async () => {
    const old = new Passwords({ memoryKiB: 4096, time: 1 }).hashSync("right-password-1");
    expect(await new Passwords({ memoryKiB: 1024, time: 1 }).verify("right-password-1", old)).toBe(true);
  });
});
