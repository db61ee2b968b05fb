// Server secrets kept in the control file (the JWT signing secret), created on first use and
// stored sealed with the data directory's key (src/infra/secret-box.ts), never in the clear.
import { eq } from "drizzle-orm";
import { serverSecrets } from "../storage/control/schema.ts";
import type { ControlDb } from "../storage/sqlite.ts";
import { SecretBox, SecretUnreadable } from "../infra/secret-box.ts";
import type { Logger } from "../infra/log.ts";

/**
 * Returns the named secret, creating it with `make` the first time. A value an older version
 * stored in the clear is sealed in place (it keeps working). One that this key cannot open (the
 * data was restored without its secret.key) is replaced with a new one and a warning: for the
 * JWT secret that means everyone signs in again, which is the safe way out.
 */
export function serverSecret(db: ControlDb, box: SecretBox, log: Logger, name: string, make: () => string): string {
  const kind = `server-secret:${name}`;
  const row = db.select().from(serverSecrets).where(eq(serverSecrets.name, name)).get();
  if (row) {
    try {
      const value = box.open(row.value, kind);
      if (!SecretBox.isSealed(row.value))
        db.update(serverSecrets)
          .set({ value: box.seal(value, kind) })
          .where(eq(serverSecrets.name, name))
          .run();
      return value;
    } catch (e) {
      if (!(e instanceof SecretUnreadable)) throw e;
      log.warn("a server secret does not open with this data directory's secret.key; it is replaced", { name });
      db.delete(serverSecrets).where(eq(serverSecrets.name, name)).run();
    }
  }
  db.insert(serverSecrets)
    .values({ name, value: box.seal(make(), kind) })
    .onConflictDoNothing()
    .run();
  return box.open(db.select().from(serverSecrets).where(eq(serverSecrets.name, name)).get()!.value, kind);
}
