// "Last edited by": who saved an entry's latest version, named for people. Versions record the
// actor as `user:<id>`, `api_key:<id>`, `schedule` or `system`; names live in the control file, so
// a page's actors are looked up there once, together.
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";

/** Who saved a version, as lists show it. */
export type Editor =
  | { kind: "user"; id: string; name: string | null; email: string | null }
  | { kind: "api_key"; id: string; name: string | null }
  | { kind: "schedule" | "system" };

/** The actor of each draft version id (`user:<id>` ...), for a page of entries. */
export function draftActors(h: ProjectHandle, versionIds: string[]): Map<string, string | null> {
  if (versionIds.length === 0) return new Map();
  const found = h.sqlite
    .query("SELECT id, created_by AS by FROM entry_versions WHERE id IN (SELECT value FROM json_each(?))")
    .all(JSON.stringify(versionIds)) as { id: string; by: string | null }[];
  return new Map(found.map((f) => [f.id, f.by]));
}

/** Names the actors of a page: people by name and e-mail, keys by name (null when they are gone). */
export function editorsOf(s: Services, actors: Iterable<string | null>): Map<string, Editor> {
  const users = new Set<string>();
  const keys = new Set<string>();
  for (const a of actors) {
    if (a?.startsWith("user:")) users.add(a.slice(5));
    else if (a?.startsWith("api_key:")) keys.add(a.slice(8));
  }
  const people = users.size
    ? (s.control.sqlite.query("SELECT id, name, email FROM users WHERE id IN (SELECT value FROM json_each(?))").all(JSON.stringify([...users])) as {
        id: string;
        name: string | null;
        email: string;
      }[])
    : [];
  const named = keys.size
    ? (s.control.sqlite.query("SELECT id, name FROM api_keys WHERE id IN (SELECT value FROM json_each(?))").all(JSON.stringify([...keys])) as {
        id: string;
        name: string;
      }[])
    : [];
  const out = new Map<string, Editor>();
  const byUser = new Map(people.map((p) => [p.id, p]));
  const byKey = new Map(named.map((k) => [k.id, k]));
  for (const id of users) out.set(`user:${id}`, { kind: "user", id, name: byUser.get(id)?.name ?? null, email: byUser.get(id)?.email ?? null });
  for (const id of keys) out.set(`api_key:${id}`, { kind: "api_key", id, name: byKey.get(id)?.name ?? null });
  out.set("schedule", { kind: "schedule" });
  out.set("system", { kind: "system" });
  return out;
}
