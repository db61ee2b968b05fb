// The limits and vocabularies of entry layouts (interface.md, Entry layout; Limits: Management
// and keys), shared by the layout's model and its checks.
export const MAX_CARDS = 50;
export const MAX_FIELDS = 500;
export const MAX_TITLE = 80;
export const MAX_DESCRIPTION = 200;
export const WIDTHS = ["full", "two_thirds", "half", "third"] as const;
export const DISPLAYS = ["picker", "inline", "embedded"] as const;
