// The offer to bring back unsaved changes found in this tab (draft-backup.ts): after a reload,
// a crash, or a conflict's Reload. It names the fields and when they were typed.
import { labelOf } from "../../api/models.ts";
import type { Model } from "../../api/types.ts";
import { clockIn } from "../../ui/time-zones.ts";

export function RestorePrompt(props: { model: Model; fields: string[]; at: string; newer: boolean; onRestore(): void; onDiscard(): void }) {
  const names = props.fields.map((ns) => {
    const f = props.model.fields.find((x) => x.namespace === ns);
    return f ? labelOf(f) : ns;
  });
  return (
    <section className="notice restore-prompt" aria-labelledby="restore-title" role="alert">
      <h2 id="restore-title">Restore your changes?</h2>
      <p>
        {`Changes to ${names.join(", ")} from ${clockIn(props.at)} were kept in this tab but never reached the server.`}
        {props.newer ? " The entry has changed since; restoring puts your changes over it." : ""}
      </p>
      <div className="toolbar">
        <button type="button" className="btn btn-primary" onClick={props.onRestore}>
          Restore changes
        </button>
        <button type="button" className="btn" onClick={props.onDiscard}>
          Discard
        </button>
      </div>
    </section>
  );
}
