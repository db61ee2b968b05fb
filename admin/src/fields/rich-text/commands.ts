// What the rich text toolbar and its shortcuts do: one table of commands, each with the button's
// name, its keys (shown in the button's title and `aria-keyshortcuts`) and whether it is on at
// the cursor, plus the keymap and the Markdown-style input rules (`# `, `> `, `- `, `1. `, ```).
import { baseKeymap, chainCommands, exitCode, setBlockType, toggleMark, wrapIn } from "prosemirror-commands";
import { redo, undo } from "prosemirror-history";
import { type InputRule, inputRules, textblockTypeInputRule, wrappingInputRule } from "prosemirror-inputrules";
import { keymap } from "prosemirror-keymap";
import type { MarkType, NodeType } from "prosemirror-model";
import { liftListItem, sinkListItem, splitListItem, wrapInList } from "prosemirror-schema-list";
import type { Command, EditorState, Plugin } from "prosemirror-state";
import { richSchema as s } from "./schema.ts";

/** A toolbar command: its name (the button's accessible name), keys and state. */
export interface Tool {
  name: string;
  /** The button's face. */
  face: string;
  /** Keys in ProseMirror's notation (`Mod-b`), or null. */
  keys: string | null;
  run: Command;
  active?(state: EditorState): boolean;
}

function markActive(state: EditorState, type: MarkType): boolean {
  const { from, $from, to, empty } = state.selection;
  if (empty) return !!type.isInSet(state.storedMarks || $from.marks());
  return state.doc.rangeHasMark(from, to, type);
}

function blockActive(state: EditorState, type: NodeType, attrs: Record<string, unknown> = {}): boolean {
  const { $from, to } = state.selection;
  return to <= $from.end() && $from.parent.hasMarkup(type, attrs);
}

function inside(state: EditorState, type: NodeType): boolean {
  const { $from } = state.selection;
  for (let d = $from.depth; d > 0; d--) if ($from.node(d).type === type) return true;
  return false;
}

/** Keys as people read them on this machine: `Ctrl+B`, or `⌘B` on a Mac. */
export function keyWords(keys: string): string {
  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  return keys
    .split("-")
    .map((k) => (k === "Mod" ? (mac ? "⌘" : "Ctrl") : k === "Alt" ? (mac ? "⌥" : "Alt") : k.length === 1 ? k.toUpperCase() : k))
    .join(mac ? "" : "+");
}

/** The same keys in `aria-keyshortcuts` notation. */
export function ariaKeys(keys: string): string {
  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  return keys
    .split("-")
    .map((k) => (k === "Mod" ? (mac ? "Meta" : "Control") : k.length === 1 ? k.toUpperCase() : k))
    .join("+");
}

/** The toolbar's commands, in order; `link` and `image` open dialogs (see the editor). */
export const TOOLS: Tool[] = [
  { name: "Bold", face: "B", keys: "Mod-b", run: toggleMark(s.marks.strong!), active: (st) => markActive(st, s.marks.strong!) },
  { name: "Italic", face: "I", keys: "Mod-i", run: toggleMark(s.marks.em!), active: (st) => markActive(st, s.marks.em!) },
  { name: "Code", face: "</>", keys: "Mod-e", run: toggleMark(s.marks.code!), active: (st) => markActive(st, s.marks.code!) },
  ...[1, 2, 3].map((level) => ({
    name: `Heading ${level}`,
    face: `H${level}`,
    keys: `Mod-Alt-${level}`,
    run: setBlockType(s.nodes.heading!, { level }),
    active: (st: EditorState) => blockActive(st, s.nodes.heading!, { level }),
  })),
  { name: "Paragraph", face: "¶", keys: "Mod-Alt-0", run: setBlockType(s.nodes.paragraph!), active: (st) => blockActive(st, s.nodes.paragraph!) },
  { name: "Bulleted list", face: "•", keys: "Mod-Shift-8", run: wrapInList(s.nodes.bullet_list!), active: (st) => inside(st, s.nodes.bullet_list!) },
  { name: "Numbered list", face: "1.", keys: "Mod-Shift-7", run: wrapInList(s.nodes.ordered_list!), active: (st) => inside(st, s.nodes.ordered_list!) },
  { name: "Quote", face: "“", keys: "Mod-Shift-9", run: wrapIn(s.nodes.blockquote!), active: (st) => inside(st, s.nodes.blockquote!) },
  { name: "Code block", face: "{ }", keys: "Mod-Alt-c", run: setBlockType(s.nodes.code_block!), active: (st) => blockActive(st, s.nodes.code_block!) },
];

/** The keymap: the tools' keys, lists, hard breaks, undo and redo, then ProseMirror's base keys. */
export function editorKeys(extra: Record<string, Command>): Plugin[] {
  const keys: Record<string, Command> = {
    "Mod-z": undo,
    "Shift-Mod-z": redo,
    "Mod-y": redo,
    Enter: splitListItem(s.nodes.list_item!),
    "Mod-[": liftListItem(s.nodes.list_item!),
    "Mod-]": sinkListItem(s.nodes.list_item!),
    "Shift-Enter": chainCommands(exitCode, (state, dispatch) => {
      dispatch?.(state.tr.replaceSelectionWith(s.nodes.hard_break!.create()).scrollIntoView());
      return true;
    }),
    ...extra,
  };
  for (const t of TOOLS) if (t.keys) keys[t.keys] = t.run;
  return [keymap(keys), keymap(baseKeymap)];
}

/** Markdown's own shortcuts while typing: `# ` makes a heading, `> ` a quote, and so on. */
export function markdownRules(): Plugin {
  const rules: InputRule[] = [
    textblockTypeInputRule(/^(#{1,6})\s$/, s.nodes.heading!, (m) => ({ level: m[1]!.length })),
    wrappingInputRule(/^\s*>\s$/, s.nodes.blockquote!),
    wrappingInputRule(/^\s*([-+*])\s$/, s.nodes.bullet_list!),
    wrappingInputRule(
      /^(\d+)\.\s$/,
      s.nodes.ordered_list!,
      (m) => ({ order: +m[1]! }),
      (m, node) => node.childCount + node.attrs.order === +m[1]!,
    ),
    textblockTypeInputRule(/^```$/, s.nodes.code_block!),
  ];
  return inputRules({ rules });
}
