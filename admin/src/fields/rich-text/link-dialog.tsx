// Link: the address of the link at the cursor (or of the selected text), applied, changed or
// removed. With nothing selected and no link at the cursor, the address is inserted as a link.
import { useId, useState } from "react";
import type { Mark } from "prosemirror-model";
import type { EditorView } from "prosemirror-view";
import { Dialog } from "../../ui/dialog.tsx";
import { richSchema } from "./schema.ts";

const link = richSchema.marks.link!;

/** The stretch of the link around the cursor, with its mark, or null. */
function linkAround(view: EditorView): { from: number; to: number; mark: Mark } | null {
  const { $from } = view.state.selection;
  const mark = link.isInSet($from.marks()) ?? (($from.nodeAfter && link.isInSet($from.nodeAfter.marks)) || null);
  if (!mark) return null;
  // The runs of text carrying this link in the paragraph; the one holding the cursor is the link.
  const runs: { from: number; to: number }[] = [];
  $from.parent.forEach((child, offset) => {
    const a = $from.start() + offset;
    if (!mark.isInSet(child.marks)) return;
    const last = runs[runs.length - 1];
    if (last && last.to === a) last.to = a + child.nodeSize;
    else runs.push({ from: a, to: a + child.nodeSize });
  });
  const run = runs.find((r) => r.from <= $from.pos && $from.pos <= r.to);
  return run ? { ...run, mark } : null;
}

export function LinkDialog({ view, onClose }: { view: EditorView; onClose(): void }) {
  const id = useId();
  const around = linkAround(view);
  const [href, setHref] = useState<string>(around?.mark.attrs.href ?? "");
  function apply() {
    const { state } = view;
    const { from, to, empty } = state.selection;
    const url = href.trim();
    if (!url) return;
    let tr = state.tr;
    if (around) tr = tr.removeMark(around.from, around.to, link).addMark(around.from, around.to, link.create({ href: url }));
    else if (empty) tr = tr.insert(from, richSchema.text(url, [link.create({ href: url })]));
    else tr = tr.addMark(from, to, link.create({ href: url }));
    view.dispatch(tr.scrollIntoView());
    onClose();
  }
  return (
    <Dialog open title="Link" onCancel={onClose}>
      <form
        className="form-stack"
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        <div className="field">
          <label htmlFor={id}>Link address</label>
          <input id={id} type="url" value={href} onChange={(e) => setHref(e.target.value)} placeholder="https://" />
        </div>
        <div className="toolbar">
          <button type="submit" className="btn btn-primary">
            Apply
          </button>
          {around && (
            <button
              type="button"
              className="btn"
              onClick={() => {
                view.dispatch(view.state.tr.removeMark(around.from, around.to, link));
                onClose();
              }}
            >
              Remove link
            </button>
          )}
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
