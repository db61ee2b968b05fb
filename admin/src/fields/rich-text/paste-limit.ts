// What a paste into rich text may bring: a field holds at most 1,000,000 characters (the server's
// limit, src/domain/models/fields.ts), so a larger paste (say 10 MB of text) is refused before
// it is parsed, with the sizes in words; nothing is changed and the clipboard still holds it.

/** The most characters a text field holds. */
export const TEXT_LIMIT = 1_000_000;

/** Markup may carry much more than its text; past this many characters it is not parsed. */
const MARKUP_LIMIT = 8 * TEXT_LIMIT;

const mb = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`;

/** Why a paste is refused, or null to let it in; `size` is the document's size now. */
export function refusePaste(event: ClipboardEvent, size: number): string | null {
  const data = event.clipboardData;
  if (!data) return null;
  const text = data.getData("text/plain");
  const html = data.getData("text/html");
  if (text.length + size <= TEXT_LIMIT && html.length <= MARKUP_LIMIT) return null;
  const what = text.length >= html.length ? `${text.length.toLocaleString("en")} characters (${mb(text.length)})` : `${mb(html.length)} of markup`;
  return `Not pasted: the clipboard holds ${what}, and a field holds at most ${TEXT_LIMIT.toLocaleString("en")} characters. Nothing was changed; the clipboard still has it.`;
}
