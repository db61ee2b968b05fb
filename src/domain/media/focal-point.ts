// The focal point of an image (decisions.md section 10: `{ x, y }` in 0-1, or null for the centre),
// checked where a client sends one (PATCH /v2/media/:id).
import { badField } from "../../errors.ts";
import type { FocalPoint } from "./types.ts";

/** The focal point a body holds, or null; throws invalid_body naming `focalPoint` (or its x or y). */
export function parseFocalPoint(value: unknown): FocalPoint | null {
  if (value === null) return null;
  if (typeof value !== "object" || Array.isArray(value)) badField("focalPoint", "focalPoint must be { x, y } with numbers from 0 to 1, or null.");
  const { x, y, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) badField(`focalPoint.${extra}`, `focalPoint has only x and y; ${JSON.stringify(extra)} is not one.`);
  for (const [name, v] of [
    ["x", x],
    ["y", y],
  ] as const) {
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > 1) badField(`focalPoint.${name}`, `focalPoint.${name} must be a number from 0 to 1.`);
  }
  return { x: x as number, y: y as number };
}
