// The file URL built (records, GraphQL transforms) and taken apart (the route), and focal points.
import { describe, expect, test } from "bun:test";
import { AppError, v2Body } from "../../errors.ts";
import { contentDisposition } from "./filename.ts";
import { parseFocalPoint } from "./focal-point.ts";
import { fileSegment, mediaUrl, parseFileSegment, parseMediaPath } from "./url.ts";

describe("mediaUrl", () => {
  test("the public URL, the file name encoded, the transform in canonical order", () => {
    expect(mediaUrl("https://cms.example.com/", "p1", "m1", "harbour at dawn.jpg")).toBe("https://cms.example.com/media/p1/m1/harbour%20at%20dawn.jpg");
    expect(mediaUrl("https://cms.example.com", "p1", "m1", "a.jpg", { fm: "auto", w: 400, q: null })).toBe(
      "https://cms.example.com/media/p1/m1/a.jpg?w=400&fm=auto",
    );
    expect(mediaUrl("https://c", "p", "m", "a.jpg", {})).toBe("https://c/media/p/m/a.jpg");
  });

  test("a transform the URL would refuse is refused here: invalid_transform naming it", () => {
    try {
      mediaUrl("https://c", "p", "m", "a.jpg", { w: 0 });
      throw new Error("expected a refusal");
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect([(err as AppError).code, (err as AppError).param, (err as AppError).message]).toEqual([
        "invalid_transform",
        "w",
        'w must be a whole number from 1 to 4096, got "0".',
      ]);
    }
  });
});

describe("parseMediaPath", () => {
  test("reads the three parts, decoding the name", () => {
    expect(parseMediaPath("/media/p1/0190c7a0-0000-7000-8000-000000000001/harbour%20at%20dawn.jpg")).toEqual({
      projectId: "p1",
      mediaId: "0190c7a0-0000-7000-8000-000000000001",
      filename: "harbour at dawn.jpg",
    });
  });

  for (const path of [
    "/media/p1/../etc/passwd",
    "/media/p1/%2e%2e/x.jpg",
    "/media/%2e%2e/m1/x.jpg",
    "/media/p1/m1/%2e%2e%2fsecret",
    "/media/p1/m1/a%2fb.jpg",
    "/media/p1/m1/.env",
    "/media/p1/m1/%E0%A4%A.jpg",
    "/media/p1/m1",
    "/media/p1/m1/a.jpg/more",
    "/media/p.1/m1/a.jpg",
  ]) {
    test(`${path} is not a file URL`, () => {
      expect(parseMediaPath(path)).toBeNull();
    });
  }
});

describe("contentDisposition", () => {
  test("an ASCII fallback without quotes or percent signs, and the exact name in RFC 8187 form", () => {
    expect(contentDisposition("attachment", 'zwei ü "x" 100%.txt')).toBe(
      `attachment; filename="zwei _ _x_ 100_.txt"; filename*=UTF-8''zwei%20%C3%BC%20%22x%22%20100%25.txt`,
    );
    expect(contentDisposition("inline", "it's (1).jpg")).toBe(`inline; filename="it's (1).jpg"; filename*=UTF-8''it%27s%20%281%29.jpg`);
  });
});

describe("parseFocalPoint", () => {
  test("{ x, y } in 0-1, or null", () => {
    expect(parseFocalPoint({ x: 0.25, y: 1 })).toEqual({ x: 0.25, y: 1 });
    expect(parseFocalPoint(null)).toBeNull();
  });

  const bad: [unknown, string, string][] = [
    [{ x: 1.5, y: 0 }, "focalPoint.x", "focalPoint.x must be a number from 0 to 1."],
    [{ x: 0.5 }, "focalPoint.y", "focalPoint.y must be a number from 0 to 1."],
    [{ x: "0.5", y: 0.5 }, "focalPoint.x", "focalPoint.x must be a number from 0 to 1."],
    [{ x: 0.5, y: 0.5, z: 1 }, "focalPoint.z", 'focalPoint has only x and y; "z" is not one.'],
    [[0.5, 0.5], "focalPoint", "focalPoint must be { x, y } with numbers from 0 to 1, or null."],
    ["centre", "focalPoint", "focalPoint must be { x, y } with numbers from 0 to 1, or null."],
  ];
  for (const [value, field, message] of bad) {
    test(`${JSON.stringify(value)}: 400 invalid_body naming ${field}`, () => {
      try {
        parseFocalPoint(value);
        throw new Error("expected a refusal");
      } catch (err) {
        expect(err).toBeInstanceOf(AppError);
        expect(v2Body(err as AppError)).toEqual({ error: message, code: "invalid_body", field });
      }
    });
  }
});

describe("fileSegment", () => {
  test("a replaced file's URL carries its revision; the segment reads back", () => {
    expect(fileSegment("m1", 0)).toBe("m1");
    expect(fileSegment("m1", 3)).toBe("m1_3");
    expect(parseFileSegment("m1_3")).toEqual({ mediaId: "m1", revision: 3 });
    expect(parseFileSegment("0190c7a0-0000-7000-8000-000000000001")).toEqual({ mediaId: "0190c7a0-0000-7000-8000-000000000001", revision: 0 });
    expect(mediaUrl("https://c", "p", fileSegment("m", 2), "a.jpg", { w: 160, fm: "webp" })).toBe("https://c/media/p/m_2/a.jpg?w=160&fm=webp");
  });
});
