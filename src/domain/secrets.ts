// Server secrets kept in the control file (the JWT signing secret), created on first use.
import { eq } from "drizzle-orm";
import { serverSecrets } from "../storage/control/schema.ts";
import type { ControlDb } from "../storage/sqlite.ts";

/** Returns the named secret, creating it with `make` the first time. */
export function serverSecret(db: ControlDb, name: string, make: () => string): string {
  const row = db.select().from(serverSecrets).where(eq(serverSecrets.name, name)).get();
  if (row) return row.value;
  const value = make();
  db.insert(serverSecrets).values({ name, value }).onConflictDoNothing().run();
  return db.select().from(serverSecrets).where(eq(serverSecrets.name, name)).get()!.value;
}
