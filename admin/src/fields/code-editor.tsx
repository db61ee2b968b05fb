// CodeMirror 6 for code and JSON values and the source view of rich text; loaded only when a form needs it.
import { useEffect, useRef } from "react";
import { EditorView, keymap, lineNumbers } from "@codemirror/view";
import { EditorState } from "@codemirror/state";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { markdown } from "@codemirror/lang-markdown";
import { html } from "@codemirror/lang-html";
import { javascript } from "@codemirror/lang-javascript";
import { json } from "@codemirror/lang-json";

const LANGUAGES = { markdown, html, javascript, json };

// The page's CSP admits <style> elements with this nonce only; CodeMirror's themes are such elements.
const NONCE = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? "";

/** A code editor labelled by `labelId`; `onChange` gets the whole text after each edit. */
export default function CodeEditor(props: {
  language: keyof typeof LANGUAGES;
  value: string;
  onChange(v: string): void;
  labelId: string;
  describedBy: string | undefined;
  /** The field's id, so a refusal can move focus here. */
  id?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is created once; later values flow in below.
  useEffect(() => {
    const attrs: Record<string, string> = { "aria-labelledby": props.labelId, "aria-multiline": "true" };
    if (props.describedBy) attrs["aria-describedby"] = props.describedBy;
    if (props.id) attrs.id = props.id;
    // Inside a disabled fieldset (a reader's entry) the text can be read and selected, not changed.
    const readOnly = !!host.current!.closest("fieldset:disabled");
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: props.value,
        extensions: [
          lineNumbers(),
          history(),
          // Tab is left to the browser so that keyboard users can leave the editor.
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorView.lineWrapping,
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          EditorView.cspNonce.of(NONCE),
          EditorView.contentAttributes.of(attrs),
          LANGUAGES[props.language](),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) onChange.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
  }, []);

  // A value set from outside (a reload after save) replaces the text when it differs.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== props.value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: props.value } });
  }, [props.value]);

  return <div className="code-editor" ref={host} />;
}
