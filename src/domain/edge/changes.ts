// What each change purges at the edge (decisions.md 14), in one place. Each function runs inside
// the change's own unit of work, beside the notice that drops Capa's own render cache:
// - an entry's publish, unpublish, move to the trash or restore (a scheduled action's and a bulk
//   batch's run through the same publish): `entry:<id>` and `model:<ns>`;
// - a model change (create, edit, delete, a field change's move): `model:<ns>` and
//   `schema:<projectId>` (GraphQL answers follow the schema);
// - a media record edited (alt, title, filename, focal point) or deleted: the entries whose
//   published copy shows it, with their models (an answer that left out its entry tags for room
//   carries its model tags, edge/tags.ts);
// - a key revoked or reactivated, rotated, re-scoped, re-versioned, its expiry or origins changed,
//   or deleted: `key:<keyId>`;
// - a project renamed, its subscription switched, or the project deleted: `project:<id>`.
// Locales (decisions.md 13) do not exist yet: a change of the project's locales will call
// purgeProject.
import type { Services } from "../../services.ts";
import type { MediaUse } from "../media/usage.ts";
import { type Tx, writeControl } from "../unit-of-work.ts";
import { CONTROL, queuePurge } from "./outbox.ts";
import { entryTag, keyTag, modelTag, projectTag, schemaTag } from "./tags.ts";

/** An entry's published copy changed, appeared or went away. */
export function purgeEntry(tx: Tx, entryId: string, namespace: string): void {
  tx.purge([entryTag(entryId), modelTag(namespace)]);
}

/** A model changed: every answer that read it, and every GraphQL answer of the project. */
export function purgeModel(tx: Tx, namespace: string): void {
  tx.purge([modelTag(namespace), schemaTag(tx.h.id)]);
}

/**
 * A media record changed or went away: the entries whose published copy shows it (`uses`, from
 * media/usage.ts `mediaUsage`), and their models.
 */
export function purgeMediaUsers(tx: Tx, uses: MediaUse[]): void {
  const shown = uses.filter((u) => u.copies.includes("published"));
  tx.purge([...shown.map((u) => entryTag(u.id)), ...new Set(shown.map((u) => modelTag(u.namespace)))]);
}

/** A key changed in a way that changes or ends its answers; joins the caller's control unit. */
export function purgeKey(s: Services, keyId: string): void {
  writeControl(s, (afterCommit) => queuePurge(s, CONTROL, s.control.sqlite, [keyTag(keyId)], afterCommit));
}

/** A project's settings changed, or the project went away; joins the caller's control unit. */
export function purgeProject(s: Services, projectId: string): void {
  writeControl(s, (afterCommit) => queuePurge(s, CONTROL, s.control.sqlite, [projectTag(projectId)], afterCommit));
}
