// The rich text toolbar: one button per command (named in words, its keys in the title and
// `aria-keyshortcuts`, `aria-pressed` when on at the cursor), Link, Image and the Source switch.
// In the source view only Source is offered.
import type { Command, EditorState } from "prosemirror-state";
import { ariaKeys, keyWords, TOOLS } from "./commands.ts";

interface Props {
  label: string;
  /** The editor's state, or null in the source view. */
  state: EditorState | null;
  run(cmd: Command): void;
  onLink(): void;
  onImage(): void;
  source: boolean;
  onSource(): void;
}

export function Toolbar(p: Props) {
  const st = p.state;
  return (
    <div className="rich-toolbar" role="toolbar" aria-label={`Formatting of ${p.label}`}>
      {st &&
        TOOLS.map((t) => (
          <button
            key={t.name}
            type="button"
            className="btn btn-quiet tool"
            aria-label={t.name}
            title={t.keys ? `${t.name} (${keyWords(t.keys)})` : t.name}
            aria-keyshortcuts={t.keys ? ariaKeys(t.keys) : undefined}
            aria-pressed={t.active ? t.active(st) : undefined}
            disabled={!t.run(st)}
            // Keep the editor's selection: the button acts on it without taking focus first.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => p.run(t.run)}
          >
            {t.face}
          </button>
        ))}
      {st && (
        <>
          <button
            type="button"
            className="btn btn-quiet tool"
            aria-label="Link"
            title={`Link (${keyWords("Mod-k")})`}
            aria-keyshortcuts={ariaKeys("Mod-k")}
            onMouseDown={(e) => e.preventDefault()}
            onClick={p.onLink}
          >
            Link
          </button>
          <button type="button" className="btn btn-quiet tool" aria-label="Image" title="Image from the media library" onClick={p.onImage}>
            Image
          </button>
        </>
      )}
      <span className="spacer" />
      <button type="button" className="btn btn-quiet tool" aria-pressed={p.source} onClick={p.onSource}>
        Source
      </button>
    </div>
  );
}
