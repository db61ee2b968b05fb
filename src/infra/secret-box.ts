// Secrets at rest (docs/security.md, "Where secrets live"). The data directory's `secret.key`
// (32 random bytes, 0600, made at the first start) seals every secret Capa must keep readable:
// the JWT signing secret in control.sqlite and each webhook endpoint's signing secrets in its
// project file. Sealing is AES-256-GCM with a fresh 96-bit nonce and the kind of secret as
// associated data, so a copy of the SQLite files or of their Litestream replica alone gives
// none of them away. The key file is never replicated: it is backed up apart from the data.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FILE_MODE } from "../storage/permissions.ts";

/** The key file's name in the data directory. */
export const KEY_FILE = "secret.key";

const PREFIX = "sealed:v1:";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value that this key cannot open (a different secret.key, or a damaged value). */
export class SecretUnreadable extends Error {}

/** Seals and opens secrets with the data directory's key. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error(`${KEY_FILE} must hold 32 bytes in base64`);
  }

  /**
   * The box of a data directory: reads `secret.key`, or makes it (0600, written only if it does
   * not exist yet, so two processes starting at once cannot make two keys).
   */
  static forDataDir(dataDir: string): SecretBox {
    const path = join(dataDir, KEY_FILE);
    if (!existsSync(path)) {
      try {
        writeFileSync(path, `${randomBytes(32).toString("base64")}\n`, { mode: FILE_MODE, flag: "wx" });
      } catch (e) {
        if ((e as { code?: string }).code !== "EEXIST") throw e;
      }
    }
    return new SecretBox(Buffer.from(readFileSync(path, "utf8").trim(), "base64"));
  }

  /** Whether a stored value is sealed (older versions stored secrets as they are). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  /**
   * The part of a stored value shown in the clear: what `visible` was when it was sealed (a
   * secret's display prefix), or for an unsealed value the value itself.
   */
  static visible(stored: string): string {
    if (!SecretBox.isSealed(stored)) return stored;
    return stored.slice(PREFIX.length, stored.lastIndexOf(":"));
  }

  /** Seals `plain` for the purpose `kind`; `visible` (no colon) is kept in the clear beside it. */
  seal(plain: string, kind: string, visible = ""): string {
    if (visible.includes(":")) throw new Error("the visible part of a sealed value cannot hold a colon");
    const nonce = randomBytes(NONCE_BYTES);
    const c = createCipheriv("aes-256-gcm", this.key, nonce);
    c.setAAD(Buffer.from(`${kind}\n${visible}`));
    const body = Buffer.concat([nonce, c.update(plain, "utf8"), c.final(), c.getAuthTag()]);
    return `${PREFIX}${visible}:${body.toString("base64")}`;
  }

  /** Opens a value sealed for `kind`; an unsealed (older) value is returned as it is. */
  open(stored: string, kind: string): string {
    if (!SecretBox.isSealed(stored)) return stored;
    const cut = stored.lastIndexOf(":");
    const visible = stored.slice(PREFIX.length, cut);
    const body = Buffer.from(stored.slice(cut + 1), "base64");
    if (body.length < NONCE_BYTES + TAG_BYTES) throw new SecretUnreadable("the sealed value is damaged");
    try {
      const d = createDecipheriv("aes-256-gcm", this.key, body.subarray(0, NONCE_BYTES));
      d.setAAD(Buffer.from(`${kind}\n${visible}`));
      d.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([d.update(body.subarray(NONCE_BYTES, body.length - TAG_BYTES)), d.final()]).toString("utf8");
    } catch {
      throw new SecretUnreadable(`the sealed value does not open with this data directory's ${KEY_FILE}`);
    }
  }
}
