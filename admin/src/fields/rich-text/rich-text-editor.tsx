// The rich text editor of markdown and html fields (issue 26 item 5), its own chunk: ProseMirror
// with a toolbar and the usual shortcuts, links, images from the media library, and a source
// view in the code editor. What it saves keeps the stored text outside the edit (keep-source.ts);
// the text is worked out only when it is needed (PendingText), so typing costs no serialising.
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { history } from "prosemirror-history";
import { EditorState, type Transaction } from "prosemirror-state";
import { EditorView } from "prosemirror-view";
import { labelOf } from "../../api/models.ts";
import { LibraryDialog } from "../media/library-dialog.tsx";
import { PendingText, textOf } from "../pending-text.ts";
import type { InputProps } from "../types.ts";
import { editorKeys, markdownRules } from "./commands.ts";
import { htmlFormat, markdownFormat } from "./formats.ts";
import { SourceKeeper } from "./keep-source.ts";
import { LinkDialog } from "./link-dialog.tsx";
import { refusePaste } from "./paste-limit.ts";
import { richSchema } from "./schema.ts";
import { Toolbar } from "./toolbar.tsx";

const CodeEditor = lazy(() => import("../code-editor.tsx"));

function stateFor(keeper: SourceKeeper, extra: { link(): boolean }): EditorState {
  return EditorState.create({
    schema: richSchema,
    doc: keeper.doc,
    plugins: [history(), markdownRules(), ...editorKeys({ "Mod-k": () => extra.link() })],
  });
}

export default function RichTextEditor(p: InputProps & { format: "markdown" | "html" }) {
  const format = p.format === "html" ? htmlFormat : markdownFormat;
  const label = labelOf(p.field);
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const keeper = useRef<SourceKeeper | null>(null);
  // The last value this editor gave the form (or was opened with): anything else is a new text.
  const emitted = useRef<unknown>(p.value);
  const onChange = useRef(p.onChange);
  onChange.current = p.onChange;
  const [, setTick] = useState(0);
  const [mode, setMode] = useState<"rich" | "source">("rich");
  const [source, setSource] = useState("");
  const [linking, setLinking] = useState(false);
  const [picking, setPicking] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  /** Mod-k: the link dialog. */
  const openLink = () => {
    setLinking(true);
    return true;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the view is made once; new texts flow in below.
  useEffect(() => {
    keeper.current = new SourceKeeper(format, textOf(p.value));
    // Inside a disabled fieldset (a reader's entry) the text can be read and selected, not changed.
    const readOnly = !!host.current!.closest("fieldset:disabled");
    const v = new EditorView(host.current!, {
      state: stateFor(keeper.current, { link: openLink }),
      editable: () => !readOnly,
      attributes: {
        id: p.id,
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": p.labelId,
        ...(p.describedBy ? { "aria-describedby": p.describedBy } : {}),
        ...(p.invalid ? { "aria-invalid": "true" } : {}),
        class: "rich-text-body",
      },
      handlePaste(_view, event) {
        const why = refusePaste(event, v.state.doc.content.size);
        setRefusal(why);
        return why !== null;
      },
      dispatchTransaction(tr: Transaction) {
        const next = v.state.apply(tr);
        v.updateState(next);
        if (tr.docChanged) {
          const k = keeper.current!;
          const doc = next.doc;
          const value = new PendingText(() => k.textOf(doc));
          emitted.current = value;
          onChange.current(value);
        }
        // The toolbar shows what is on at the cursor.
        setTick((t) => t + 1);
      },
    });
    view.current = v;
    // Draw the toolbar now that there is a state to read.
    setTick((t) => t + 1);
    return () => v.destroy();
  }, []);

  // A text from outside (a reload, a restored version) replaces the document.
  // biome-ignore lint/correctness/useExhaustiveDependencies: openLink only sets state; the newest is not needed.
  useEffect(() => {
    const v = view.current;
    if (!v || p.value === emitted.current) return;
    emitted.current = p.value;
    keeper.current = new SourceKeeper(format, textOf(p.value));
    v.updateState(stateFor(keeper.current, { link: openLink }));
    if (mode === "source") setSource(textOf(p.value));
    setTick((t) => t + 1);
  }, [p.value, format, mode]);

  function toSource() {
    setSource(textOf(emitted.current));
    setMode("source");
  }

  function toRich() {
    // The source as typed is now the stored text the document keeps.
    keeper.current = new SourceKeeper(format, source);
    view.current!.updateState(stateFor(keeper.current, { link: openLink }));
    setMode("rich");
    requestAnimationFrame(() => view.current?.focus());
  }

  const state = view.current?.state;
  return (
    <div className="rich-text">
      <Toolbar
        label={label}
        state={mode === "rich" ? (state ?? null) : null}
        run={(cmd) => {
          const v = view.current!;
          cmd(v.state, v.dispatch);
          v.focus();
        }}
        onLink={() => setLinking(true)}
        onImage={() => setPicking(true)}
        source={mode === "source"}
        onSource={() => (mode === "source" ? toRich() : toSource())}
      />
      <div ref={host} className="rich-text-host" hidden={mode === "source"} />
      {mode === "source" && (
        <Suspense fallback={<textarea className="mono" readOnly value={source} aria-labelledby={p.labelId} />}>
          <CodeEditor
            language={p.format}
            labelId={p.labelId}
            describedBy={p.describedBy}
            value={source}
            onChange={(t) => {
              setSource(t);
              emitted.current = t;
              onChange.current(t);
            }}
          />
        </Suspense>
      )}
      <div aria-live="polite">
        {refusal && (
          <p className="form-error" role="alert">
            {refusal}
          </p>
        )}
      </div>
      {linking && view.current && (
        <LinkDialog
          view={view.current}
          onClose={() => {
            setLinking(false);
            view.current?.focus();
          }}
        />
      )}
      <LibraryDialog
        open={picking}
        title={`Insert an image into ${label}`}
        kind="image"
        onCancel={() => setPicking(false)}
        onChoose={(f) => {
          setPicking(false);
          const v = view.current!;
          v.dispatch(v.state.tr.replaceSelectionWith(richSchema.nodes.image!.create({ src: f.url, alt: f.alt || null })).scrollIntoView());
          v.focus();
        }}
      />
    </div>
  );
}
