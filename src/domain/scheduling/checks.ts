// What a scheduling request's model (bodies.ts) cannot say: each target is an entry or model of
// this project, named once (resolved to its id), and the zone it means when none is sent.
import { badField } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { findModel } from "../models/catalog.ts";
import { isUuid } from "../models/fields.ts";
import { getProject } from "../projects/service.ts";

/** One target of a request, its id resolved. */
export type Target = { type: "instance" | "model"; id: string };

/** Resolves the targets (1 to 500 of the model's shape) to entries or models of this project, each named once. */
export function resolveTargets(h: ProjectHandle, list: readonly Target[]): Target[] {
  const out: Target[] = [];
  const seen = new Set<string>();
  list.forEach(({ type, id }, i) => {
    const path = `targets[${i}]`;
    let resolved: string;
    if (type === "instance") {
      // Each project is its own file, so an entry of another project is simply not found here.
      const row = isUuid(id)
        ? (h.sqlite.query("SELECT id FROM entries WHERE id = ? AND deleted_at IS NULL").get(id.toLowerCase()) as { id: string } | null)
        : null;
      if (!row) badField(`${path}.id`, `${path}.id ${id} is not an entry of this project`);
      resolved = row.id;
    } else {
      const m = findModel(h, id);
      if (!m) badField(`${path}.id`, `${path}.id ${id} is not a model of this project`);
      resolved = m.id;
    }
    const k = `${type}:${resolved}`;
    if (seen.has(k)) badField(`${path}.id`, `${path} names ${id} a second time`);
    seen.add(k);
    out.push({ type, id: resolved });
  });
  return out;
}

/** The zone a request means: the one it sends, or the project's publishing time zone. */
export function zoneOf(s: Services, projectId: string, v: unknown): unknown {
  if (v !== undefined && v !== null) return v;
  const dflt = getProject(s, projectId)?.timezone;
  if (!dflt) badField("timezone", "timezone is required: this project has no default publishing time zone");
  return dflt;
}
