// Renders one image variant with sharp. Cover crops keep the focal point in view: the image is
// scaled to cover the box, then the box is placed so the focal point sits as near its centre as
// the edges allow. Nothing is ever enlarged past its own pixels: a box larger than the image
// shrinks, keeping its aspect ratio. EXIF orientation is applied; metadata is not copied.
import type { Sharp } from "sharp";
import { AppError } from "../../errors.ts";
import { loadSharp } from "./sharp.ts";
import type { ResolvedTransform } from "./transform.ts";
import type { FocalPoint } from "./types.ts";

/** A rendered variant. */
export interface Rendered {
  data: Buffer;
  width: number;
  height: number;
}

/** The box and the crop window of a cover fit around a focal point, in pixels of the scaled image. */
export function coverGeometry(
  source: { width: number; height: number },
  box: { width: number; height: number },
  focal: FocalPoint | null,
): { resize: { width: number; height: number }; crop: { left: number; top: number; width: number; height: number } } {
  let { width: bw, height: bh } = box;
  let scale = Math.max(bw / source.width, bh / source.height);
  if (scale > 1) {
    bw = Math.max(1, Math.round(bw / scale));
    bh = Math.max(1, Math.round(bh / scale));
    scale = 1;
  }
  const rw = Math.max(bw, Math.round(source.width * scale));
  const rh = Math.max(bh, Math.round(source.height * scale));
  const fx = focal?.x ?? 0.5;
  const fy = focal?.y ?? 0.5;
  const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max);
  return {
    resize: { width: rw, height: rh },
    crop: { left: clamp(Math.round(fx * rw - bw / 2), rw - bw), top: clamp(Math.round(fy * rh - bh / 2), rh - bh), width: bw, height: bh },
  };
}

/** Renders `t` of the image at `input` (a path or the bytes); throws image_unreadable or image_too_large. */
export async function renderVariant(input: string | Uint8Array, t: ResolvedTransform, focal: FocalPoint | null, maxPixels: number): Promise<Rendered> {
  try {
    const source = typeof input === "string" ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    const sharp = await loadSharp();
    let img: Sharp = sharp(source, { limitInputPixels: maxPixels, autoOrient: true });
    if (t.fit === "cover" && t.width !== null && t.height !== null) {
      const meta = await img.metadata();
      const width = meta.autoOrient?.width ?? meta.width!;
      const height = meta.autoOrient?.height ?? meta.height!;
      const g = coverGeometry({ width, height }, { width: t.width, height: t.height }, focal);
      img = img.resize(g.resize.width, g.resize.height, { fit: "fill" }).extract(g.crop);
    } else if (t.width !== null || t.height !== null) {
      img = img.resize(t.width, t.height, { fit: t.fit ?? "inside", withoutEnlargement: true });
    }
    const quality = t.quality ?? undefined;
    switch (t.format) {
      case "jpg":
        img = img.flatten({ background: "#ffffff" }).jpeg({ quality, mozjpeg: false });
        break;
      case "png":
        img = img.png();
        break;
      case "webp":
        img = img.webp({ quality });
        break;
      case "avif":
        // Effort 2 of 9: AVIF's default effort takes seconds per image on a small server.
        img = img.avif({ quality, effort: 2 });
        break;
    }
    const { data, info } = await img.toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (err) {
    if (/pixel limit/i.test(String(err)))
      throw new AppError("image_too_large", { message: `The image has more pixels than the limit of ${maxPixels}.`, extra: { limit: maxPixels } });
    throw new AppError("image_unreadable", { message: `The image cannot be decoded: ${String((err as Error)?.message ?? err)}.` });
  }
}
