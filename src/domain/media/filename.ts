// File names of uploads. The name is only ever the last segment of the public URL and the name in
// Content-Disposition (bytes are stored under an id, never under the client's name), yet a name
// with path separators, control characters or bidi overrides is refused rather than quietly
// rewritten: the client learns at once which part was wrong and nothing surprising is stored.
import { AppError } from "../../errors.ts";

/** The longest name accepted, in UTF-8 bytes (the common file-system limit). */
export const MAX_FILENAME_BYTES = 255;

// Control characters (C0, DEL, C1) and the bidi marks and overrides that can make
// "gpj.exe" display as "exe.jpg".
const FORBIDDEN = /[\p{Cc}\p{Bidi_Control}]/u;

/** Why a name is refused, or null when it is acceptable. */
export function filenameProblem(name: string): string | null {
  if (name.length === 0 || name.trim().length === 0) return "is empty";
  if (name.includes("/") || name.includes("\\")) return "contains a path separator";
  if (FORBIDDEN.test(name)) return "contains a control or bidi character";
  if (name.startsWith(".")) return "starts with a dot";
  if (name !== name.trim()) return "starts or ends with white space";
  if (new TextEncoder().encode(name).byteLength > MAX_FILENAME_BYTES) return `is longer than ${MAX_FILENAME_BYTES} bytes`;
  return null;
}

/** Returns the name in NFC form, or throws `invalid_filename` naming the part (`what`, e.g. `file part 2`). */
export function checkFilename(name: string, what: string): string {
  const nfc = name.normalize("NFC");
  const problem = filenameProblem(nfc);
  if (problem) {
    throw new AppError("invalid_filename", {
      message: `The name of ${what} ${problem}: ${JSON.stringify(name)}.`,
      param: "filename",
      extra: { field: "filename" },
    });
  }
  return nfc;
}

/** A Content-Disposition value with an ASCII fallback name and the exact name in RFC 8187 form. */
export function contentDisposition(type: "inline" | "attachment", filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\%]/g, "_");
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
