// The focal point of an image (decisions.md section 10: `{ x, y }` from 0 to 1, null for the
// centre), which `cover` crops keep in view. Picked by clicking on the picture; from the keyboard
// the arrow keys move it while the picture has focus (Shift for bigger steps), and the two
// percentage inputs set it exactly.
import type { KeyboardEvent, MouseEvent } from "react";
import { type MediaFile, thumbUrl } from "../../api/media.ts";

/** A focal point, or null for the centre. */
export type Focal = { x: number; y: number } | null;

/** A share kept to whole percent: finer than anyone can pick, and it reads back as typed. */
const percent = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 100) / 100;

/** The picture with its focal point; `onChange` is absent for people who only read. */
export function FocalPointPicker({ file, value, onChange }: { file: MediaFile; value: Focal; onChange?(v: Focal): void }) {
  const src = thumbUrl(file, 480);
  if (!src) return null;
  const at = value ?? { x: 0.5, y: 0.5 };
  // The picture's box is fixed before it arrives, so a click lands where the picture will be.
  const w = Math.min(480, file.width ?? 480);
  const shown = { width: w, height: file.width && file.height ? Math.round((w * file.height) / file.width) : undefined };
  function click(e: MouseEvent<HTMLButtonElement>) {
    // A click from the keyboard (Enter, Space) has no position on the picture.
    if (e.detail === 0) return;
    const box = e.currentTarget.getBoundingClientRect();
    onChange?.({ x: percent((e.clientX - box.left) / box.width), y: percent((e.clientY - box.top) / box.height) });
  }
  function key(e: KeyboardEvent<HTMLButtonElement>) {
    const step = e.shiftKey ? 0.1 : 0.01;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    onChange?.({ x: percent(at.x + move[0]), y: percent(at.y + move[1]) });
  }
  const where = value ? `${Math.round(value.x * 100)}% across, ${Math.round(value.y * 100)}% down` : "the centre";
  return (
    <button
      type="button"
      className="focal-pick"
      disabled={!onChange}
      aria-label={`Focal point: ${where}. Click the picture where it matters most, or move the point with the arrow keys.`}
      onClick={click}
      onKeyDown={key}
    >
      <img src={src} alt={file.alt} width={shown.width} height={shown.height} />
      <span className={value ? "focal-marker" : "focal-marker focal-centre"} style={{ left: `${at.x * 100}%`, top: `${at.y * 100}%` }} aria-hidden="true" />
    </button>
  );
}

const AXES = [
  ["x", "Across (%)"],
  ["y", "Down (%)"],
] as const;

/** The focal point as two percentages, each 0 to 100; both empty is the centre (null). */
export function FocalInputs({ value, onChange, disabled }: { value: Focal; onChange(v: Focal): void; disabled: boolean }) {
  const set = (axis: "x" | "y", raw: string) => {
    if (raw === "") return onChange(null);
    const n = Number(raw);
    if (!Number.isFinite(n)) return;
    const base = value ?? { x: 0.5, y: 0.5 };
    onChange({ ...base, [axis]: percent(n / 100) });
  };
  return (
    <fieldset className="focal-inputs" disabled={disabled}>
      <legend>Focal point</legend>
      {AXES.map(([axis, words]) => (
        <div className="field" key={axis}>
          <label htmlFor={`focal-${axis}`}>{words}</label>
          <input
            id={`focal-${axis}`}
            type="number"
            min={0}
            max={100}
            step={1}
            value={value ? Math.round(value[axis] * 100) : ""}
            onChange={(e) => set(axis, e.target.value)}
          />
        </div>
      ))}
      <button type="button" className="btn btn-quiet" disabled={value === null} onClick={() => onChange(null)}>
        Use the centre
      </button>
    </fieldset>
  );
}
