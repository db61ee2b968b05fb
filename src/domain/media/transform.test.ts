// The transform grammar: parsed once into a typed value, every bad parameter refused with
// invalid_transform naming it, resolved against Accept and dpr into a canonical variant key.
import { describe, expect, test } from "bun:test";
import { AppError, apiErrorObject } from "../../errors.ts";
import { accepts, parseTransform, resolveTransform, variantKey } from "./transform.ts";

const parse = (q: string) => parseTransform(new URLSearchParams(q));

function refusal(q: string): AppError {
  try {
    parse(q);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error(`expected ${q} to be refused`);
}

describe("parseTransform", () => {
  test("no query: null (the original)", () => {
    expect(parse("")).toBeNull();
  });

  test("every parameter read into a typed value", () => {
    expect(parse("w=800&h=600&fit=contain&fm=webp&q=75&dpr=1.5")).toEqual({ w: 800, h: 600, fit: "contain", fm: "webp", q: 75, dpr: 1.5 });
    expect(parse("w=1")).toEqual({ w: 1, h: null, fit: null, fm: null, q: null, dpr: null });
    expect(parse("h=4096&fm=auto")).toEqual({ w: null, h: 4096, fit: null, fm: "auto", q: null, dpr: null });
  });

  const bad: [string, string, string][] = [
    ["w=0", "w", 'w must be a whole number from 1 to 4096, got "0".'],
    ["w=99999", "w", 'w must be a whole number from 1 to 4096, got "99999".'],
    ["w=4097", "w", 'w must be a whole number from 1 to 4096, got "4097".'],
    ["w=12.5", "w", 'w must be a whole number from 1 to 4096, got "12.5".'],
    ["w=", "w", 'w must be a whole number from 1 to 4096, got "".'],
    ["h=-5", "h", 'h must be a whole number from 1 to 4096, got "-5".'],
    ["w=1e3", "w", 'w must be a whole number from 1 to 4096, got "1e3".'],
    ["fm=gif", "fm", 'fm must be one of jpg, png, webp, avif, auto, got "gif".'],
    ["fm=JPG", "fm", 'fm must be one of jpg, png, webp, avif, auto, got "JPG".'],
    ["fit=crop", "fit", 'fit must be one of cover, contain, inside, outside, fill, got "crop".'],
    ["q=0", "q", 'q must be a whole number from 1 to 100, got "0".'],
    ["q=101", "q", 'q must be a whole number from 1 to 100, got "101".'],
    ["dpr=0.5", "dpr", 'dpr must be a number from 1 to 3 with at most one decimal, got "0.5".'],
    ["dpr=4", "dpr", 'dpr must be a number from 1 to 3 with at most one decimal, got "4".'],
    ["dpr=1.25", "dpr", 'dpr must be a number from 1 to 3 with at most one decimal, got "1.25".'],
    ["dpr=3.5", "dpr", 'dpr must be a number from 1 to 3 with at most one decimal, got "3.5".'],
    ["width=100", "width", 'Unknown transform parameter "width": use w, h, fit, fm, q or dpr.'],
    ["w=100&blur=5", "blur", 'Unknown transform parameter "blur": use w, h, fit, fm, q or dpr.'],
    ["w=100&w=200", "w", "The parameter w is given twice."],
  ];
  for (const [q, param, message] of bad) {
    test(`${q}: 400 invalid_transform naming ${param}`, () => {
      const err = refusal(q);
      expect(err.status).toBe(400);
      expect(apiErrorObject(err, "https://capa.test")).toEqual({
        type: "invalid_request",
        code: "invalid_transform",
        message,
        param,
        hint: "Example: ?w=800&fm=auto (w and h 1-4096, fit cover|contain|inside|outside|fill, fm jpg|png|webp|avif|auto, q 1-100, dpr 1-3).",
        docs: "https://capa.test/docs/errors/invalid_transform",
      });
    });
  }
});

describe("resolveTransform and variantKey", () => {
  const resolve = (q: string, accept: string | null = null, mime = "image/jpeg") => resolveTransform(parse(q)!, accept, mime);

  test("cover is the default with both sides; one side keeps the aspect ratio and ignores fit", () => {
    expect(resolve("w=400&h=300")).toEqual({ width: 400, height: 300, fit: "cover", format: "jpg", quality: null, negotiated: false });
    expect(resolve("w=400&fit=fill")).toEqual({ width: 400, height: null, fit: null, format: "jpg", quality: null, negotiated: false });
  });

  test("dpr is folded into pixels and capped at 4096: w=400&dpr=2 is the variant w=800", () => {
    expect(variantKey(resolve("w=400&dpr=2"))).toBe(variantKey(resolve("w=800")));
    expect(variantKey(resolve("w=800"))).toBe("w800_jpg");
    expect(resolve("w=4000&dpr=3").width).toBe(4096);
    expect(resolve("w=333&dpr=1.5").width).toBe(500);
  });

  test("without fm the source's own format; q is dropped for png", () => {
    expect(resolve("w=10&q=50", null, "image/png")).toMatchObject({ format: "png", quality: null });
    expect(resolve("w=10", null, "image/gif").format).toBe("png");
    expect(resolve("w=10", null, "image/webp").format).toBe("webp");
    expect(variantKey(resolve("w=10&h=20&fit=inside&fm=webp&q=60"))).toBe("w10_h20_inside_q60_webp");
  });

  test("fm=auto: AVIF, then WebP, then the source's jpg or png, by Accept, and marks Vary", () => {
    const chrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
    expect(resolve("w=400&fm=auto", chrome)).toMatchObject({ format: "avif", negotiated: true });
    expect(resolve("w=400&fm=auto", "image/webp,*/*")).toMatchObject({ format: "webp", negotiated: true });
    expect(resolve("w=400&fm=auto", "image/avif;q=0, image/webp")).toMatchObject({ format: "webp" });
    expect(resolve("w=400&fm=auto", "*/*")).toMatchObject({ format: "jpg", negotiated: true });
    expect(resolve("w=400&fm=auto", null, "image/png")).toMatchObject({ format: "png" });
    expect(resolve("w=400&fm=auto", "image/*", "image/gif")).toMatchObject({ format: "png" });
    expect(resolve("w=400&fm=webp", "image/avif").negotiated).toBe(false);
    // A client naming only JPEG gets JPEG, whatever the source (issue 23 item 8); one naming only PNG, PNG.
    expect(resolve("w=400&fm=auto", "image/jpeg", "image/png")).toMatchObject({ format: "jpg", negotiated: true });
    expect(resolve("w=400&fm=auto", "image/jpeg", "image/gif")).toMatchObject({ format: "jpg" });
    expect(resolve("w=400&fm=auto", "image/jpeg,*/*;q=0.5", "image/webp")).toMatchObject({ format: "jpg" });
    expect(resolve("w=400&fm=auto", "image/png", "image/jpeg")).toMatchObject({ format: "png" });
    expect(resolve("w=400&fm=auto", "image/png,image/jpeg", "image/jpeg")).toMatchObject({ format: "jpg" });
    expect(resolve("w=400&fm=auto", "image/jpeg;q=0, image/png", "image/gif")).toMatchObject({ format: "png" });
  });

  test("accepts reads q values and ignores wildcards", () => {
    expect(accepts("image/webp;q=0.5", "image/webp")).toBe(true);
    expect(accepts("image/webp;q=0", "image/webp")).toBe(false);
    expect(accepts("image/*", "image/webp")).toBe(false);
    expect(accepts(null, "image/webp")).toBe(false);
  });
});
