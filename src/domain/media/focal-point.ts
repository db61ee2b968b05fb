// The focal point of an image (decisions.md section 10: `{ x, y }` in 0-1, or null for the centre),
// as PATCH /v2/media/:id's body model says it (FocalPointModel).
import { checkValue } from "../access/body-check.ts";
import { FocalPointModel } from "./bodies.ts";
import type { FocalPoint } from "./types.ts";

/** The focal point a body holds, or null; throws invalid_body naming `focalPoint` (or its x or y). */
export function parseFocalPoint(value: unknown): FocalPoint | null {
  checkValue(FocalPointModel, value, "focalPoint");
  return value === null ? null : { x: value.x, y: value.y };
}
