// The screenshots of docs/admin.md, taken by the browser tests and never by hand (issue 27 item 8).
// Each shot names the browser test file whose flow takes it (`screenshot(page, "<name>")` writes
// .tmp/screens/<name>.png); this script runs those files, copies the fresh shots to
// docs/admin/<name>.png and rewrites the list between the markers of docs/admin.md's
// "Screenshots" section. test/docs-screenshots.test.ts checks that the list, the files and the
// tests agree.
//
//   npx bun scripts/screenshots.ts            every shot (runs every file below; minutes)
//   npx bun scripts/screenshots.ts people     the shots whose name or test file holds "people"
//
// A shot is copied only when this run wrote it, so a failed flow never leaves an old picture
// passed off as new; the script then names what is missing and exits 1.
import { copyFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const SCREENS = join(ROOT, ".tmp", "screens");
const DOCS = join(ROOT, "docs", "admin");
const PAGE = join(ROOT, "docs", "admin.md");
export const START = "<!-- screenshots: written by scripts/screenshots.ts -->";
export const END = "<!-- /screenshots -->";

/** One picture of the docs: its file name (without .png), the flow that takes it, its words. */
export interface Shot {
  name: string;
  test: string;
  caption: string;
}

const T = (file: string) => `test/admin/${file}.browser.test.ts`;

/** The pictures of docs/admin.md, in the order the page lists them. */
export const SHOTS: Shot[] = [
  { name: "sign-in", test: T("shell"), caption: "sign in" },
  { name: "rail-workspace", test: T("shell"), caption: "rail from a workspace" },
  { name: "shell-menu-390", test: T("frame"), caption: "the menu at 390 px" },
  { name: "shell-scrolled-1280", test: T("frame"), caption: "the rail and top bar in view on a long page" },
  { name: "home-1280", test: T("home"), caption: "home" },
  { name: "home-390", test: T("home"), caption: "home at 390 px" },
  { name: "home-new-project", test: T("home"), caption: "a new project's first steps" },
  { name: "entry-list", test: T("entries"), caption: "entry list" },
  { name: "entry-list-bulk", test: T("entries"), caption: "bulk publish" },
  { name: "list-filtered", test: T("lists"), caption: "an entry list filtered and sorted" },
  { name: "list-select-all", test: T("lists"), caption: "all entries that match selected" },
  { name: "list-390", test: T("lists"), caption: "an entry list at 390 px" },
  { name: "view-open", test: T("views"), caption: "a saved view" },
  { name: "view-dropped-390", test: T("views"), caption: "a view whose filter no longer fits, at 390 px" },
  { name: "entry-editor", test: T("entries"), caption: "entry editor" },
  { name: "entry-schedule", test: T("entries"), caption: "scheduling" },
  { name: "entry-versions", test: T("entries"), caption: "versions" },
  { name: "entry-list-360-dark", test: T("entries"), caption: "entry list at 360 px, dark" },
  { name: "palette", test: T("palette"), caption: "the command palette" },
  { name: "model-fields", test: T("models"), caption: "model fields" },
  { name: "model-plan", test: T("models"), caption: "field-change plan" },
  { name: "workspaces-list", test: T("workspaces"), caption: "workspaces" },
  { name: "workspace-editor", test: T("workspaces"), caption: "arrangement editor" },
  { name: "workspace-editor-refused", test: T("workspaces"), caption: "a refused arrangement" },
  { name: "media-grid", test: T("media-library"), caption: "media grid" },
  { name: "media-grid-thumbnails", test: T("media-app"), caption: "media grid with thumbnails" },
  { name: "media-grid-sorted", test: T("media-lists"), caption: "media grid sorted and searched" },
  { name: "media-list", test: T("media-library"), caption: "media list" },
  { name: "media-list-390", test: T("media-lists"), caption: "media list sorted and searched, at 390 px" },
  { name: "media-record-editor", test: T("media-library"), caption: "media record editor" },
  { name: "media-grid-360-dark", test: T("media-library"), caption: "media at 360 px, dark" },
  { name: "scheduled-list", test: T("scheduled"), caption: "scheduled actions" },
  { name: "scheduled-calendar", test: T("scheduled"), caption: "the calendar" },
  { name: "scheduled-batch", test: T("scheduled"), caption: "a batch" },
  { name: "scheduled-calendar-360-dark", test: T("scheduled"), caption: "the calendar at 360 px, dark" },
  { name: "keys-list", test: T("keys"), caption: "API keys" },
  { name: "keys-scope-tooltip", test: T("keys"), caption: "a key's access in words, the raw scope in a tooltip" },
  { name: "keys-390-dark", test: T("keys"), caption: "API keys at 390 px, dark" },
  { name: "keys-search-390", test: T("small-lists"), caption: "API keys sorted and searched, at 390 px" },
  { name: "webhooks-search-390", test: T("small-lists"), caption: "webhooks sorted and searched, at 390 px" },
  { name: "webhooks-local-refused", test: T("webhooks"), caption: "a local receiver refused, with the way to allow it" },
  { name: "webhook-deliveries", test: T("webhooks"), caption: "a delivery's request and answer" },
  { name: "webhook-redeliver-retrying", test: T("webhooks"), caption: "Redeliver while retrying" },
  { name: "webhook-delivery-390", test: T("webhooks"), caption: "a delivery at 390 px" },
  { name: "people-invited", test: T("people"), caption: "people" },
  { name: "people-search-390", test: T("small-lists"), caption: "people sorted and searched, at 390 px" },
  { name: "people-new-link-1280", test: T("people-ownership"), caption: "a fresh invitation link to copy" },
  { name: "people-last-owner-leave", test: T("people-ownership"), caption: "the only owner trying to leave" },
  { name: "people-resent-390", test: T("invite-mail"), caption: "an invitation mailed again, at 390 px" },
  { name: "invite-accept", test: T("people"), caption: "invitation page" },
  { name: "settings-slug-taken", test: T("settings"), caption: "settings" },
  { name: "profile", test: T("profile"), caption: "your profile" },
  { name: "locales-editor-side-by-side", test: T("locales-editor"), caption: "German beside English, with Fill from" },
  { name: "locales-editor-phone", test: T("locales-editor"), caption: "locales in the editor at 390 px" },
  { name: "locales-screen", test: T("locales-settings"), caption: "the Locales screen" },
  { name: "locales-remove-phone", test: T("locales-settings"), caption: "removing a locale that holds values, at 390 px" },
];

/** The list docs/admin.md holds between the markers. */
export function screenshotSection(shots: readonly Shot[] = SHOTS): string {
  const links = shots.map((s) => `- [${s.caption}](admin/${s.name}.png)`).join("\n");
  return `${START}\n${links}\n${END}`;
}

/** docs/admin.md with its list rewritten. */
export function withSection(page: string): string {
  const from = page.indexOf(START);
  const to = page.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/admin.md has no "${START}" ... "${END}" markers`);
  return page.slice(0, from) + screenshotSection() + page.slice(to + END.length);
}

async function main(filters: string[]): Promise<number> {
  const chosen = SHOTS.filter((s) => filters.length === 0 || filters.some((f) => s.name.includes(f) || s.test.includes(f)));
  if (chosen.length === 0) {
    console.error(`No shot matches ${filters.join(", ")}.`);
    return 1;
  }
  const started = Date.now();
  // An old picture must never pass for this run's: the chosen ones are removed first.
  for (const s of chosen) rmSync(join(SCREENS, `${s.name}.png`), { force: true });
  const files = [...new Set(chosen.map((s) => s.test))];
  const failed: string[] = [];
  for (const file of files) {
    console.log(`screenshots: running ${file}`);
    const run = Bun.spawn([process.execPath, "test", "--timeout", "60000", file], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
    if ((await run.exited) !== 0) failed.push(file);
  }
  const missing: string[] = [];
  for (const s of chosen) {
    const from = join(SCREENS, `${s.name}.png`);
    if (!existsSync(from) || statSync(from).mtimeMs < started) {
      missing.push(`${s.name} (${s.test})`);
      continue;
    }
    copyFileSync(from, join(DOCS, `${s.name}.png`));
  }
  writeFileSync(PAGE, withSection(readFileSync(PAGE, "utf8")));
  console.log(`screenshots: ${chosen.length - missing.length} of ${chosen.length} written to docs/admin/`);
  if (failed.length) console.error(`screenshots: these flows failed: ${failed.join(", ")}`);
  if (missing.length) console.error(`screenshots: not taken: ${missing.join(", ")}`);
  return failed.length || missing.length ? 1 : 0;
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
