// Reading a scheduling request: only its own keys, the action, the targets (1 to 500 distinct
// entries or models of this project, resolved to their ids) and the zone it means.
import { badField } from "../../errors.ts";
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { findModel } from "../models/catalog.ts";
import { isUuid } from "../models/fields.ts";
import { getProject } from "../projects/service.ts";

/** Targets per request (interface.md, Limits: scheduled-action targets per request). */
const MAX_TARGETS = 500;

/** One target of a request, its id resolved. */
export type Target = { type: "instance" | "model"; id: string };

/** Refuses a key the request does not take, naming the ones it does. */
export function checkKeys(body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) if (!allowed.includes(k)) badField(k, `${k} is not a field of this request; send ${allowed.join(", ")}`);
}

/** publish or unpublish. */
export function checkAction(v: unknown): "publish" | "unpublish" {
  if (v !== "publish" && v !== "unpublish") badField("action", "action must be publish or unpublish");
  return v;
}

/** Checks the target list: 1 to 500 distinct entries or models of this project. */
export function checkTargets(h: ProjectHandle, v: unknown): Target[] {
  if (!Array.isArray(v) || v.length < 1 || v.length > MAX_TARGETS) {
    badField("targets", `targets must list 1 to ${MAX_TARGETS} items of { type, id }${Array.isArray(v) ? `; it lists ${v.length}` : ""}`);
  }
  const out: Target[] = [];
  const seen = new Set<string>();
  v.forEach((t: unknown, i) => {
    const path = `targets[${i}]`;
    if (t === null || typeof t !== "object" || Array.isArray(t)) badField(path, `${path} must be an object { type, id }`);
    const { type, id } = t as Record<string, unknown>;
    if (type !== "instance" && type !== "model") badField(`${path}.type`, `${path}.type must be instance (an entry) or model`);
    if (typeof id !== "string" || id.length === 0) badField(`${path}.id`, `${path}.id must be an entry id or a model id`);
    let resolved: string;
    if (type === "instance") {
      // Each project is its own file, so an entry of another project is simply not found here.
      const row = isUuid(id) ? (h.sqlite.query("SELECT id FROM entries WHERE id = ?").get(id.toLowerCase()) as { id: string } | null) : null;
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
