// A list of strings as tags: each a chip with its own Remove, and a text box that adds what is
// typed on Enter or a comma (Backspace in the empty box takes the last one back to edit).
import { useState } from "react";
import { labelOf } from "../../api/models.ts";
import { type InputProps, aria } from "../types.ts";

export function TagsInput(p: InputProps) {
  const label = labelOf(p.field);
  const tags = Array.isArray(p.value) ? (p.value as unknown[]).filter((t): t is string => typeof t === "string") : [];
  const [text, setText] = useState("");
  const add = () => {
    const t = text.trim();
    setText("");
    if (t && !tags.includes(t)) p.onChange([...tags, t]);
  };
  return (
    <div className="tags">
      {tags.length > 0 && (
        <ul className="tag-list" aria-label={`${label}: ${tags.length} ${tags.length === 1 ? "item" : "items"}`}>
          {tags.map((t) => (
            <li key={t} className="tag">
              {t}
              <button type="button" className="tag-remove" aria-label={`Remove ${t} from ${label}`} onClick={() => p.onChange(tags.filter((x) => x !== t))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        type="text"
        {...aria(p)}
        value={text}
        placeholder="Type and press Enter"
        onChange={(e) => setText(e.target.value.replace(/,$/, ""))}
        onKeyDown={(e) => {
          if (e.key === "Enter" || e.key === ",") {
            e.preventDefault();
            add();
          } else if (e.key === "Backspace" && text === "" && tags.length > 0) {
            e.preventDefault();
            setText(tags[tags.length - 1]!);
            p.onChange(tags.slice(0, -1));
          }
        }}
        onBlur={add}
      />
    </div>
  );
}
