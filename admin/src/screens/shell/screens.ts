// The screens reached from the rail's foot, apart from the router so the shell can list them
// without importing the router that imports the shell (test/architecture.test.ts: no cycles).

/** The screens reached from the rail's foot, in the order of its links. */
export const SCREENS = [
  ["models", "Models"],
  ["workspaces", "Workspaces"],
  ["media", "Media"],
  ["keys", "API keys"],
  ["webhooks", "Webhooks"],
  ["people", "People"],
  ["settings", "Settings"],
] as const;

/** The links of the rail's foot: path and the word on the link (decisions.md 11). */
export const SCREEN_LINKS = [["scheduled", "Scheduled"] as const, ["trash", "Trash"] as const, ...SCREENS];
