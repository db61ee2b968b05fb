// docs/configuration.md lists every CAPA_* setting the code reads, and nothing it does not
// (issue 23 item 7): the code's names are read from src/, as literals ("CAPA_X") and property
// reads (env.CAPA_X), the docs' from the first column of the table.
import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");

async function readByCode(): Promise<Set<string>> {
  const names = new Set<string>();
  for await (const file of new Glob("src/**/*.ts").scan(ROOT)) {
    if (file.endsWith(".test.ts")) continue;
    const text = await Bun.file(join(ROOT, file)).text();
    for (const m of text.matchAll(/["'`](CAPA_[A-Z0-9_]+)["'`]|\benv\.(CAPA_[A-Z0-9_]+)/g)) names.add((m[1] ?? m[2])!);
  }
  return names;
}

async function documented(): Promise<Set<string>> {
  const text = await Bun.file(join(ROOT, "docs/configuration.md")).text();
  const names = new Set<string>();
  for (const line of text.split("\n")) {
    const first = /^\| ([^|]+) \|/.exec(line)?.[1] ?? "";
    for (const m of first.matchAll(/`(CAPA_[A-Z0-9_]+)`/g)) names.add(m[1]!);
  }
  return names;
}

describe("docs/configuration.md", () => {
  test("names every CAPA_* setting the code reads, and only those", async () => {
    const code = await readByCode();
    const docs = await documented();
    expect(code.size).toBeGreaterThan(40);
    expect([...code].filter((n) => !docs.has(n)).sort()).toEqual([]);
    expect([...docs].filter((n) => !code.has(n)).sort()).toEqual([]);
  });
});
