// What a rich text field saves: the stored text itself until the document is edited, then the
// stored text with the edit merged in (merge.ts), so bytes outside the edit stay as stored.
import type { Node as PMNode } from "prosemirror-model";
import type { Format } from "./formats.ts";
import { merge3 } from "./merge.ts";

/** The stored text a document was opened from, and how to write a later state of it. */
export class SourceKeeper {
  /** The document as opened. */
  readonly doc: PMNode;
  private base: string | null = null;
  constructor(
    private readonly format: Format,
    /** The text as stored. */
    readonly stored: string,
  ) {
    this.doc = format.parse(stored);
  }

  /** The text to save for `doc`: the stored text when nothing changed, else the merge. */
  textOf(doc: PMNode): string {
    if (doc.eq(this.doc)) return this.stored;
    // What the editor would have written for the text as opened; worked out at the first edit.
    this.base ??= this.format.serialize(this.doc);
    return merge3(this.base, this.stored, this.format.serialize(doc));
  }
}
