// The screens a person's role may open from the rail and the command palette.
import { SCREEN_LINKS } from "./screens.ts";
import { canIntegrate } from "../../ui/refusal.tsx";

/** The rail's screen links for `role`: keys and webhooks only for owners, admins and developers (decisions.md 2). */
export function screenLinksFor(role: string): (typeof SCREEN_LINKS)[number][] {
  return SCREEN_LINKS.filter(([path]) => canIntegrate(role) || (path !== "keys" && path !== "webhooks"));
}
