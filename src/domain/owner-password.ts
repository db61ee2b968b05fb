// The first start's owner password, hashed ahead. Argon2id takes about 120 ms here, the largest
// single step of a first start; src/main.ts starts it on Bun's thread pool before it loads the
// rest of the server, and bootstrap (bootstrap.ts) takes the finished hash. Kept apart from
// bootstrap.ts so the entry loads nothing heavy before the hash has started.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config.ts";
import { randomToken } from "../infra/crypto.ts";
import { CONTROL_FILE } from "../storage/files.ts";
import { DEFAULT_PASSWORD_COST, Passwords, type PasswordCost } from "./users/passwords.ts";

/** The owner's password and its hash; `generated` when CAPA_ADMIN_PASSWORD was not set. */
export interface OwnerPassword {
  password: string;
  generated: boolean;
  hash: string;
}

/**
 * Starts hashing the owner's password when the data directory has no control file yet (a first
 * start); answers null otherwise. The hash is of the password as given: bootstrap still checks
 * the password's rules, and a data directory whose control file exists hashes in bootstrap.
 */
export function hashOwnerPassword(config: Pick<Config, "dataDir" | "adminPassword"> & { passwordCost?: PasswordCost }): Promise<OwnerPassword> | null {
  if (existsSync(join(config.dataDir, CONTROL_FILE))) return null;
  const generated = config.adminPassword === null;
  const password = config.adminPassword ?? randomToken(20);
  return new Passwords(config.passwordCost ?? DEFAULT_PASSWORD_COST).hash(password).then((hash) => ({ password, generated, hash }));
}
