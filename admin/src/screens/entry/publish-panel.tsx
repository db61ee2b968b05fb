// Before publishing (issue 26 item 7): every rule the saved draft breaks, each with a link to its
// field, in the aside. Publishing is refused by the server until they hold; drafts may break them.
import { labelOf } from "../../api/models.ts";
import { fieldOf, type RuleError } from "../../api/editing.ts";
import type { Model } from "../../api/types.ts";

export function PublishPanel({ model, rules }: { model: Model; rules: RuleError[] }) {
  if (rules.length === 0) return null;
  return (
    <section className="card publish-panel" aria-labelledby="publish-panel-title">
      <h2 id="publish-panel-title">Before publishing</h2>
      <p className="muted">{rules.length === 1 ? "1 rule to fix:" : `${rules.length} rules to fix:`}</p>
      <ul>
        {rules.map((r) => {
          const f = model.fields.find((x) => x.namespace === fieldOf(r));
          return (
            <li key={`${r.field}-${r.rule}`}>
              {f ? (
                <a
                  href={`#f-${f.id}`}
                  onClick={(e) => {
                    e.preventDefault();
                    document.getElementById(`f-${f.id}`)?.focus();
                  }}
                >
                  {labelOf(f)}
                </a>
              ) : (
                r.field
              )}
              {`: ${r.message}`}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
