// Search as one types (issue 27: no Enter needed): the text goes to the URL, and so to the
// server, a moment after typing stops, so each keystroke costs no request. A search set from
// elsewhere (a view, back and forward) shows in the box.
import { useEffect, useRef, useState } from "react";

/** How long typing must pause before the list is asked again. */
export const SEARCH_DEBOUNCE_MS = 300;

export function SearchBox({ id, value, onSearch }: { id: string; value: string; onSearch(q: string): void }) {
  const [text, setText] = useState(value);
  const sent = useRef(value);
  // The latest handler, so a render of the list does not restart the wait.
  const handler = useRef(onSearch);
  handler.current = onSearch;
  useEffect(() => {
    // The URL changed without this box (a view opened, the browser went back): follow it.
    if (value !== sent.current) {
      sent.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text === sent.current) return;
    const t = setTimeout(() => {
      sent.current = text;
      handler.current(text);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);
  return (
    <form className="field" onSubmit={(e) => e.preventDefault()}>
      <label htmlFor={id}>Search</label>
      <input id={id} type="search" value={text} onChange={(e) => setText(e.target.value)} />
    </form>
  );
}
