// Parsing the scopes a key is minted with: `resource:action[:modelId]`, wildcards stored
// expanded, and the forms no key may ever hold refused with the scope named.
import { badField, fail } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { RESOURCE_ACTIONS, WILDCARDS } from "../access/scopes.ts";
import { findModel } from "../models/catalog.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Resources whose scopes may be limited to one model. */
const PER_MODEL = new Set(["instance", "model"]);

function refuse(scope: string, i: number, why: string): never {
  fail("invalid_scope", { message: `${why}: ${scope}`, param: `scopes[${i}]`, extra: { field: `scopes[${i}]`, scope } });
}

/** Parses and expands a scope list (1 to 100 items); per-model scopes must name a model of the project. */
export function parseScopes(s: Services, projectId: string, raw: unknown): string[] {
  if (!Array.isArray(raw) || raw.length < 1 || raw.length > 100) badField("scopes", "scopes must be a list of 1 to 100 scope strings");
  const out: string[] = [];
  raw.forEach((v, i) => {
    if (typeof v !== "string") badField(`scopes[${i}]`, `scopes[${i}] must be a scope string such as instance:read`);
    const parts = v.split(":");
    if (parts.length < 2 || parts.length > 3) refuse(v, i, "A scope is resource:action or resource:action:<modelId>");
    const [resource, action, model] = parts as [string, string, string | undefined];
    if (resource === "*" || resource === "api_key" || (action === "*" && !WILDCARDS[`${resource}:*`])) {
      refuse(v, i, "No key can hold this scope");
    }
    if (action === "*") {
      if (model !== undefined) refuse(v, i, "A wildcard cannot be limited to a model");
      out.push(...WILDCARDS[`${resource}:*`]!);
      return;
    }
    const actions = RESOURCE_ACTIONS[resource];
    if (!actions?.includes(action)) refuse(v, i, "No key can hold this scope");
    if (model !== undefined) {
      if (!PER_MODEL.has(resource)) refuse(v, i, "Only instance and model scopes can be limited to a model");
      if (!UUID.test(model)) refuse(v, i, "A per-model scope names the model id, never the namespace");
      const m = findModel(s.projects.get(projectId), model);
      if (!m || m.id !== model.toLowerCase()) refuse(v, i, "No model of this project has that id");
      out.push(`${resource}:${action}:${m.id}`);
      return;
    }
    out.push(`${resource}:${action}`);
  });
  return [...new Set(out)];
}
