// First start: an empty data directory (no accounts) gets an owner, a demo project and two read
// keys, and the caller prints their secrets once. Every step goes through the domain functions
// the routes and the CLI use.
import type { Services } from "../services.ts";
import { randomToken } from "../infra/crypto.ts";
import { createUser, hasUsers } from "./users/service.ts";
import { createProject, type Project } from "./projects/service.ts";
import { mintKey } from "./keys/mint.ts";
import { seedDemo, type DemoCounts } from "./demo/seed.ts";
import { writeControl } from "./unit-of-work.ts";
import type { OwnerPassword } from "./owner-password.ts";

export const DEFAULT_OWNER_EMAIL = "owner@capa.local";

/** What a first start created; the only place the generated secrets exist. */
export interface FirstStart {
  /** `password` is null when it came from CAPA_ADMIN_PASSWORD: the operator knows it, and logs should not. */
  owner: { email: string; password: string | null };
  demo: { project: Pick<Project, "id" | "name" | "slug">; counts: DemoCounts; productionKey: string; developmentKey: string } | null;
}

/**
 * Runs the first start when the data directory has no accounts yet; answers null otherwise.
 * `prepared` is the owner's password hashed ahead (owner-password.ts), used when it is the
 * password this start would use; otherwise the password is hashed here.
 * The control-file writes share one transaction, so a failure part-way leaves no owner behind
 * and the next start tries again (the half-written project file is removed).
 */
export function bootstrap(s: Services, prepared: OwnerPassword | null = null): FirstStart | null {
  if (hasUsers(s)) return null;
  const email = s.config.adminEmail ?? DEFAULT_OWNER_EMAIL;
  const generated = s.config.adminPassword === null;
  // The hash made ahead fits when it is of this start's password: generated for both, or the same setting.
  const ahead = prepared && (prepared.generated ? generated : prepared.password === s.config.adminPassword) ? prepared : null;
  const password = ahead?.password ?? s.config.adminPassword ?? randomToken(20);
  let projectId: string | null = null;
  try {
    return writeControl(s, (): FirstStart => {
      const owner = createUser(s, { email, password, passwordHash: ahead?.hash, name: "Owner" });
      const result: FirstStart = { owner: { email: owner.email, password: generated ? password : null }, demo: null };
      if (!s.config.demo) return result;
      const project = createProject(s, { name: "Demo", slug: "demo", ownerId: owner.id });
      projectId = project.id;
      const counts = seedDemo(s, s.projects.get(project.id), `user:${owner.id}`);
      const mint = (environment: "production" | "development", name: string) =>
        mintKey(s, project.id, { kind: "cli" }, { preset: "read_only", environment, name }).apiKey;
      result.demo = {
        project: { id: project.id, name: project.name, slug: project.slug },
        counts,
        productionKey: mint("production", "Demo read key (production)"),
        developmentKey: mint("development", "Demo read key (development)"),
      };
      return result;
    });
  } catch (err) {
    if (projectId) s.projects.remove(projectId);
    throw err;
  }
}

/** The block printed once on a first start: who can sign in and the two read keys. */
export function firstStartBanner(r: FirstStart, origin: string): string {
  const rule = "=".repeat(72);
  const lines = [rule, "Capa first start. Save these now: the secrets are not shown again.", ""];
  lines.push(`  Owner e-mail      ${r.owner.email}`);
  lines.push(`  Owner password    ${r.owner.password ?? "(the value of CAPA_ADMIN_PASSWORD)"}`);
  lines.push(`  Admin app         ${origin}/admin/  (sign in with this e-mail and password)`);
  if (r.demo) {
    const c = r.demo.counts;
    lines.push("");
    lines.push(`  Demo project      ${r.demo.project.name} (slug ${r.demo.project.slug}, id ${r.demo.project.id})`);
    lines.push(`                    ${c.models} models, ${c.entries} entries: ${c.published} published, ${c.changed} changed, ${c.drafts} drafts`);
    lines.push(`  Production key    ${r.demo.productionKey}   (read_only; published content)`);
    lines.push(`  Development key   ${r.demo.developmentKey}   (read_only; drafts too)`);
    lines.push("");
    lines.push(`  Try it:  curl -H "x-api-key: ${r.demo.productionKey}" ${origin}/api/entries/post`);
  } else {
    lines.push("");
    lines.push("  No demo project (CAPA_DEMO=0). Create one with `bin/capa project add`,");
    lines.push("  then mint read keys with `bin/capa key mint --project <slug> --preset read_only`.");
  }
  lines.push(rule);
  return lines.join("\n");
}
