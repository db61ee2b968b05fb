// docs/admin.md's screenshots are taken by the browser tests and copied by scripts/screenshots.ts
// (issue 27 item 8): the page's list is the script's, every picture it names is a PNG in
// docs/admin/, no picture there is left out of the list, and each is taken by the test the
// script runs for it.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { END, SHOTS, START, screenshotSection } from "../scripts/screenshots.ts";

const ROOT = join(import.meta.dir, "..");
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe("the screenshots of docs/admin.md", () => {
  test("the page's list is the one the script writes", () => {
    const page = readFileSync(join(ROOT, "docs", "admin.md"), "utf8");
    const section = page.slice(page.indexOf(START), page.indexOf(END) + END.length);
    expect(section).toBe(screenshotSection());
  });

  test("each picture is a PNG in docs/admin/, and every PNG there is listed", () => {
    for (const s of SHOTS) expect([s.name, [...readFileSync(join(ROOT, "docs", "admin", `${s.name}.png`)).subarray(0, 8)]]).toEqual([s.name, PNG]);
    const files = readdirSync(join(ROOT, "docs", "admin")).filter((f) => f.endsWith(".png"));
    expect(files.sort()).toEqual(SHOTS.map((s) => `${s.name}.png`).sort());
    expect(new Set(SHOTS.map((s) => s.name)).size).toBe(SHOTS.length);
  });

  test("each is taken by the browser test the script runs for it", () => {
    for (const s of SHOTS) {
      const source = readFileSync(join(ROOT, s.test), "utf8");
      // A name ending in a width may be written by a loop over widths: `people-new-link-${width}`.
      const looped = s.name.replace(/-\d+(?=$|-)/, `-${"$"}{width}`);
      const taken = [`"${s.name}"`, `\`${looped}\``].some((arg) => new RegExp(`screenshot\\(\\w+, ${RegExp.escape(arg)}\\)`).test(source));
      expect([s.name, taken]).toEqual([s.name, true]);
    }
  });
});
