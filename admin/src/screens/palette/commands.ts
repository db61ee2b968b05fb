// What the command palette offers (design/admin.md, The frame): the screens, every model's list,
// "New entry in <model>" for people who may write, and entries found by title. Pure functions, so
// the palette component only renders and navigates.
import type { Model } from "../../api/types.ts";
import type { SearchAnswer } from "../../api/search.ts";
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

/** Entries found by title and files found by name, title or alt (GET /v2/search), as commands that open them. */
export function foundCommands(found: SearchAnswer): Command[] {
  return [
    ...found.entries.map((e) => ({
      id: `entry-${e.id}`,
      label: e.title?.trim() || "Untitled entry",
      hint: `${e.modelName} entry`,
      go: { to: "/content/$model/$entryId", params: { model: e.model, entryId: e.id } },
    })),
    ...found.media.map((f) => ({
      id: `media-${f.id}`,
      label: f.filename,
      hint: f.title && f.title !== f.filename ? `Media file: ${f.title}` : "Media file",
      go: { to: "/media/$mediaId", params: { mediaId: f.id } },
    })),
  ];
}

/** How many entries and files a search may add. */
export const SEARCH_LIMIT = 8;
