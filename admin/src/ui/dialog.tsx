// A modal dialog on the native <dialog> element: focus is trapped and Esc closes it.
import { useEffect, useRef, type ReactNode } from "react";

/** A confirmation dialog; `open` shows it modally, closing (Esc or Cancel) calls `onCancel`. */
export function Dialog(props: { open: boolean; title: string; children: ReactNode; onCancel(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby="dialog-title" onCancel={props.onCancel}>
      {props.open && (
        <>
          <h2 id="dialog-title">{props.title}</h2>
          {props.children}
        </>
      )}
    </dialog>
  );
}
