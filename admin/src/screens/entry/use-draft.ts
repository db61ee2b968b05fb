// The form's state: the values on screen, which fields changed since the last save, and refs the
// writer reads at the moment it sends (so a save in flight never decides from an older render).
import { useCallback, useRef, useState } from "react";

export interface Draft {
  values: Record<string, unknown>;
  changed: Set<string>;
  /** The values and changed fields as they are now, for code running outside a render. */
  now: { readonly current: { values: Record<string, unknown>; changed: Set<string> } };
  onChange(ns: string, v: unknown): void;
  /** Replaces every value (a reload, a restored version) and marks the form clean. */
  replace(data: Record<string, unknown>): void;
  /** Sets some values as changes (restoring unsaved changes). */
  apply(values: Record<string, unknown>): void;
  /**
   * After a save of `sent` (the values object it read) for `fields`: those fields are clean again,
   * except any changed since the save read them, so typing during a save is never lost.
   */
  saved(sent: Record<string, unknown>, fields: string[]): void;
}

export function useDraft(initial: Record<string, unknown>, onEdit: (ns: string) => void): Draft {
  const [values, setValues] = useState<Record<string, unknown>>(() => ({ ...initial }));
  const [changed, setChanged] = useState<Set<string>>(new Set());
  const now = useRef({ values, changed });
  const edit = useRef(onEdit);
  edit.current = onEdit;

  // Every change is made to `now` first, synchronously, then rendered: the writer and the leave
  // guard read `now` between renders (a guard asked right after a save must see the form clean).
  const set = useCallback((next: { values: Record<string, unknown>; changed: Set<string> }) => {
    now.current = next;
    setValues(next.values);
    setChanged(next.changed);
  }, []);

  // Stable across renders, so the memoised fields that did not change are not rendered again.
  const onChange = useCallback(
    (ns: string, v: unknown) => {
      const { values: vs, changed: ch } = now.current;
      set({ values: { ...vs, [ns]: v }, changed: ch.has(ns) ? ch : new Set(ch).add(ns) });
      edit.current(ns);
    },
    [set],
  );

  const replace = useCallback((data: Record<string, unknown>) => set({ values: { ...data }, changed: new Set() }), [set]);

  const apply = useCallback(
    (vs: Record<string, unknown>) => set({ values: { ...now.current.values, ...vs }, changed: new Set([...now.current.changed, ...Object.keys(vs)]) }),
    [set],
  );

  const saved = useCallback(
    (sent: Record<string, unknown>, fields: string[]) => {
      const { values: vs, changed: ch } = now.current;
      const clean = fields.filter((ns) => vs[ns] === sent[ns]);
      if (clean.length === 0) return;
      const next = new Set(ch);
      for (const ns of clean) next.delete(ns);
      set({ values: vs, changed: next });
    },
    [set],
  );

  return { values, changed, now, onChange, replace, apply, saved };
}
