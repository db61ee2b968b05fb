// The server process's entry: `npm start` runs it bundled (scripts/build-server.ts), the tests
// as it is. On a first start the owner's password is hashed on Bun's thread pool while the rest
// of the server loads (src/server.ts is imported only once the hash has started), which takes a
// third off the time to the first answer (issue 16). Everything else is in src/server.ts.
import { loadConfig } from "./config.ts";
import { hashOwnerPassword, type OwnerPassword } from "./domain/owner-password.ts";

if (import.meta.main) {
  let owner: Promise<OwnerPassword | null> = Promise.resolve(null);
  try {
    owner = hashOwnerPassword(loadConfig(process.env)) ?? owner;
  } catch {
    // A bad setting: serve() reports it as the one-line start-up failure.
  }
  const { serve } = await import("./server.ts");
  await serve(process.env, owner);
}
