// Words with the raw scopes behind them in a tooltip (issue 27 item 7). The words take focus so
// the tooltip shows from the keyboard as on hover (a `title` shows on hover only); the tooltip is
// their description, so screen readers read the raw scope after the words; Escape hides it.
import { useId, useState } from "react";
import { describeScopes } from "./scope-words.ts";

/** `text` with `tip` shown on hover and focus. */
export function Tip({ text, tip }: { text: string; tip: string }) {
  const id = useId();
  const [hidden, setHidden] = useState(false);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: leaving the words (pointer or focus) undoes an Escape, as tooltips do.
    <span className="tip-host" data-dismissed={hidden || undefined} onMouseLeave={() => setHidden(false)} onBlur={() => setHidden(false)}>
      {/* biome-ignore lint/a11y: focus is how keyboard users reach the tooltip, and Escape hides it (WCAG 1.4.13). */}
      <span tabIndex={0} aria-describedby={id} onKeyDown={(e) => e.key === "Escape" && setHidden(true)}>
        {text}
      </span>
      <span role="tooltip" id={id} className="tip mono">
        {tip}
      </span>
    </span>
  );
}

/** A key's access as lines of words, each with its raw scopes in a tooltip. */
export function ScopeLines(props: { scopes: string[]; environment: "production" | "development"; modelName(id: string): string | null }) {
  const lines = describeScopes(props.scopes, props.environment, props.modelName);
  return (
    <ul className="scope-lines">
      {lines.map((l) => (
        <li key={l.scopes.join(" ")}>
          <Tip text={l.text} tip={l.scopes.join(", ")} />
        </li>
      ))}
    </ul>
  );
}
