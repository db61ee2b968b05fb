// What the command palette offers (design/admin.md, The frame): the screens, every model's list,
// "New entry in <model>" for people who may write, and entries found by title. Pure functions, so
// the palette component only renders and navigates.
import type { Entry, Model } from "../../api/types.ts";
import { entryTitle } from "../../api/models.ts";
import { canEditEntries } from "../../ui/refusal.tsx";

/** One choice: the words shown (and matched), a second line, and where it leads. */
export interface Command {
  id: string;
  label: string;
  hint: string;
  go: { to: string; params?: Record<string, string> } | "shortcuts" | "sign-out";
}

/** The commands that need no search: screens, models, new entries, shortcuts, sign out. */
export function staticCommands(models: Model[], screens: readonly (readonly [string, string])[], role: string): Command[] {
  const out: Command[] = [];
  for (const m of models) out.push({ id: `model-${m.id}`, label: m.name, hint: "Entries", go: { to: "/content/$model", params: { model: m.namespace } } });
  // Viewers read only (decisions.md 2); the palette offers no write they would be refused.
  if (canEditEntries(role)) {
    for (const m of models) {
      out.push({ id: `new-${m.id}`, label: `New entry in ${m.name}`, hint: "Action", go: { to: "/content/$model/new", params: { model: m.namespace } } });
    }
  }
  for (const [path, word] of screens) out.push({ id: `screen-${path}`, label: word, hint: "Screen", go: { to: `/${path}` } });
  out.push({ id: "profile", label: "Your profile", hint: "Name and password", go: { to: "/profile" } });
  out.push({ id: "shortcuts", label: "Keyboard shortcuts", hint: "Help", go: "shortcuts" });
  out.push({ id: "sign-out", label: "Sign out", hint: "Action", go: "sign-out" });
  return out;
}

/** Whether every word typed appears in the label, in any order and case. */
export function matches(label: string, text: string): boolean {
  const l = label.toLowerCase();
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => l.includes(w));
}

/** The static commands the text matches; every one when nothing is typed. */
export function filterCommands(all: Command[], text: string): Command[] {
  return text.trim() === "" ? all : all.filter((c) => matches(c.label, text));
}

/** Entries found by title, as commands that open them in the editor. */
export function entryCommands(found: { model: Model; entries: Entry[] }[]): Command[] {
  return found.flatMap(({ model, entries }) =>
    entries.map((e) => ({
      id: `entry-${e.id}`,
      label: entryTitle(model, e),
      hint: `${model.name} entry`,
      go: { to: "/content/$model/$entryId", params: { model: model.namespace, entryId: e.id } },
    })),
  );
}

/** How many models an entry search asks at once, and how many entries each may add. */
export const SEARCH_MODELS = 8;
export const SEARCH_PER_MODEL = 5;
