// One locale's fallback chain on the Locales screen: the codes in order, each movable up and
// down or removable, and a choice of another locale to add at the end. Each change is saved.
import { useState } from "react";
import type { Locale } from "../../api/locales.ts";

export function FallbackEditor(props: { locale: Locale; all: Locale[]; readOnly: boolean; busy: boolean; onChange(fallback: string[], done: string): void }) {
  const { locale: x, all } = props;
  const name = (code: string) => all.find((l) => l.code === code)?.name ?? code;
  const addable = all.filter((l) => l.code !== x.code && !x.fallback.includes(l.code));
  const [pick, setPick] = useState("");
  const move = (i: number, by: number) => {
    const next = [...x.fallback];
    const [c] = next.splice(i, 1);
    next.splice(i + by, 0, c!);
    props.onChange(next, `${x.name} now falls back to ${next.join(", ")}.`);
  };
  return (
    <div className="form-stack">
      <h3 id={`fallback-${x.code}`}>Falls back to</h3>
      {x.fallback.length === 0 ? (
        <p className="hint">Nothing: an empty value stays empty in {x.name}.</p>
      ) : (
        <ol aria-labelledby={`fallback-${x.code}`} className="fallback-list">
          {x.fallback.map((c, i) => (
            <li key={c} className="fallback-item">
              <span>
                {name(c)} <span className="mono">({c})</span>
              </span>
              {!props.readOnly && (
                <span className="row-actions">
                  <button
                    type="button"
                    className="btn"
                    disabled={props.busy || i === 0}
                    onClick={() => move(i, -1)}
                    aria-label={`Move ${c} up in ${x.code}'s fallbacks`}
                  >
                    Up
                  </button>{" "}
                  <button
                    type="button"
                    className="btn"
                    disabled={props.busy || i === x.fallback.length - 1}
                    onClick={() => move(i, 1)}
                    aria-label={`Move ${c} down in ${x.code}'s fallbacks`}
                  >
                    Down
                  </button>{" "}
                  <button
                    type="button"
                    className="btn"
                    disabled={props.busy}
                    onClick={() =>
                      props.onChange(
                        x.fallback.filter((f) => f !== c),
                        `${x.name} no longer falls back to ${c}.`,
                      )
                    }
                    aria-label={`Remove ${c} from ${x.code}'s fallbacks`}
                  >
                    Remove
                  </button>
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
      {!props.readOnly && addable.length > 0 && (
        <div className="toolbar">
          <label htmlFor={`add-fallback-${x.code}`}>Add a fallback to {x.code}</label>
          <select id={`add-fallback-${x.code}`} value={pick} onChange={(e) => setPick(e.target.value)}>
            <option value="">Choose a locale</option>
            {addable.map((l) => (
              <option key={l.code} value={l.code}>
                {l.name} ({l.code})
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn"
            disabled={props.busy || pick === ""}
            onClick={() => {
              props.onChange([...x.fallback, pick], `${x.name} now falls back to ${[...x.fallback, pick].join(", ")}.`);
              setPick("");
            }}
          >
            Add fallback
          </button>
        </div>
      )}
    </div>
  );
}
