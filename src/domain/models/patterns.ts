// A text field's `pattern` (decisions.md 15): an ECMAScript regular expression source, checked
// when the model is saved and run when an entry is published.
//
// Two engines see a pattern. The server runs it in RE2JS, a linear-time engine (no backtracking),
// so no pattern and no value, however long, can stall a publish, a bulk run or the scheduler. The
// admin app and site builders' forms run the same source in the browser's backtracking engine,
// where a nested quantifier such as `(a+)+$` takes exponential time on a crafted value. So a
// pattern is refused at save when it is not valid ECMAScript (with the `u` flag, as JSON Schema
// and HTML's `pattern` read it), when RE2 cannot run it (lookaround, back-references), or when a
// quantifier repeats something that itself repeats without bound (star height above one, the
// shape of every classic catastrophic pattern). docs/editing.md, "Patterns".
import { RegExpParser } from "@eslint-community/regexpp";
import type { Node as RegexNode } from "@eslint-community/regexpp/ast";
import { RE2JS } from "re2js";
import type { ProjectHandle } from "../../storage/pool.ts";

/** The longest pattern a field may carry. */
export const PATTERN_MAX = 1000;

/** Why a pattern is refused, as the end of a sentence naming the setting; null when it is accepted. */
export function patternProblem(source: string): string | null {
  try {
    new RegExp(source, "u");
  } catch (e) {
    return `is not a valid regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, "")}`;
  }
  const ast = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(source, 0, source.length, { unicode: true });
  const nested = findNested(ast);
  if (nested) {
    return `can backtrack catastrophically: the quantifier of ${JSON.stringify(nested)} repeats something that repeats itself; write it without the nested repetition`;
  }
  if (hasKind(ast, (n) => n.type === "Backreference")) return "uses a back-reference, which cannot be checked in linear time";
  if (hasKind(ast, (n) => n.type === "Assertion" && (n.kind === "lookahead" || n.kind === "lookbehind"))) {
    return "uses a lookahead or lookbehind, which cannot be checked in linear time";
  }
  try {
    RE2JS.compile(RE2JS.translateRegExp(source));
  } catch (e) {
    return `uses syntax the server cannot run in linear time (${(e as Error).message})`;
  }
  return null;
}

/** The children of a node of the pattern's syntax tree. */
function children(n: RegexNode): RegexNode[] {
  switch (n.type) {
    case "Pattern":
    case "Group":
    case "CapturingGroup":
      return n.alternatives;
    case "Alternative":
      return n.elements;
    case "Quantifier":
      return [n.element];
    case "Assertion":
      return n.kind === "lookahead" || n.kind === "lookbehind" ? n.alternatives : [];
    default:
      return [];
  }
}

function hasKind(n: RegexNode, test: (n: RegexNode) => boolean): boolean {
  return test(n) || children(n).some((c) => hasKind(c, test));
}

/** A quantifier that may repeat more than once. */
function repeats(n: RegexNode): boolean {
  return n.type === "Quantifier" && n.max > 1;
}

/** The raw text of the first quantifier whose element holds another repeating quantifier, or null. */
function findNested(n: RegexNode): string | null {
  if (repeats(n) && n.type === "Quantifier" && hasKind(n.element, repeats)) return n.raw;
  for (const c of children(n)) {
    const found = findNested(c);
    if (found) return found;
  }
  return null;
}

/**
 * Whether a value matches a field's pattern, unanchored as RegExp.test reads it (write `^...$`
 * for the whole value). Compiled patterns are kept on the open project file, so a bulk publish
 * compiles each pattern once.
 */
export function matchesPattern(h: ProjectHandle, source: string, value: string): boolean {
  let cache = h.cache.get("patterns") as Map<string, RE2JS> | undefined;
  if (!cache) {
    cache = new Map();
    h.cache.set("patterns", cache);
  }
  let re = cache.get(source);
  if (!re) {
    re = RE2JS.compile(RE2JS.translateRegExp(source));
    if (cache.size >= 200) cache.clear();
    cache.set(source, re);
  }
  return re.test(value);
}
