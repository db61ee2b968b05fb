// A field value whose text is worked out only when it is needed (a save, a backup, a preview):
// a rich text field would otherwise serialise its whole document on every keystroke, which for a
// long text costs more than a frame. JSON.stringify calls `toJSON`, so the value goes over the
// wire as the plain string. Outside the editor's chunk, so the form can read one without loading it.
/** The text of a value made on demand, once. */
export class PendingText {
  private text: string | undefined;
  constructor(private readonly make: () => string) {}
  toJSON(): string {
    this.text ??= this.make();
    return this.text;
  }
}

/** A text value as a string: a string as it is, a pending text worked out, anything else empty. */
export function textOf(v: unknown): string {
  if (typeof v === "string") return v;
  return v instanceof PendingText ? v.toJSON() : "";
}

/** The form's values with pending texts worked out: what a save, a backup or a preview sends. */
export function plainValues(values: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(values)) as Record<string, unknown>;
}
