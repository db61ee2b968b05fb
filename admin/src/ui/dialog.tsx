// A modal dialog on the native <dialog> element: focus is trapped and Esc closes it. `wide` makes
// room for a grid (the media library, the relation picker) and takes the screen on a phone.
import { useEffect, useId, useRef, type ReactNode } from "react";

/** A dialog; `open` shows it modally, closing (Esc or Cancel) calls `onCancel`. */
export function Dialog(props: { open: boolean; title: string; children: ReactNode; onCancel(): void; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} className={props.wide ? "dialog-wide" : undefined} aria-labelledby={titleId} onCancel={props.onCancel}>
      {props.open && (
        <>
          <h2 id={titleId}>{props.title}</h2>
          {props.children}
        </>
      )}
    </dialog>
  );
}
