// The rules docs/architecture.md states about the code's shape, checked on the sources: no import
// cycle at run time (type-only imports aside), the read workers load nothing of the write side,
// http/ never touches drizzle or SQL, no route file imports another, no module keeps mutable
// state of its own at the top level, and the admin app takes nothing of the server but the types
// of src/shared/ (which itself loads nothing but TypeBox).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { Glob } from "bun";
import { ROOT } from "./spawn.ts";

const SRC = join(ROOT, "src");
const ADMIN = join(ROOT, "admin", "src");
const files = [...new Glob("**/*.ts").scanSync(SRC)].filter((f) => !f.endsWith(".test.ts")).map((f) => join(SRC, f));
const adminFiles = [...new Glob("**/*.{ts,tsx}").scanSync(ADMIN)].filter((f) => !f.endsWith(".test.ts")).map((f) => join(ADMIN, f));
const source = new Map([...files, ...adminFiles].map((f) => [f, readFileSync(f, "utf8")]));
const rel = (f: string) => relative(ROOT, f);

/** The run-time imports of a file: relative paths whose import brings at least one value. */
function runtimeImports(file: string): string[] {
  const out: string[] = [];
  for (const m of source.get(file)!.matchAll(/^import (?!type )([^;]*?) from "(\.[^"]+)";/gms)) {
    const named = /^\{([^}]*)\}$/s.exec(m[1]!.trim());
    if (named && named[1]!.split(",").every((x) => x.trim() === "" || x.trim().startsWith("type "))) continue;
    out.push(resolve(dirname(file), m[2]!));
  }
  return out;
}

/** Every import and re-export of a file: its specifier, and whether it is type-only as a whole (`import type`, `export type`). */
function importsOf(file: string): { spec: string; typeOnly: boolean }[] {
  const text = source.get(file)!;
  const statements = [...text.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^;"]*?\s+from\s+)?"([^"]+)";/gms)].map((m) => ({ spec: m[2]!, typeOnly: !!m[1] }));
  // A dynamic import loads at run time whatever it names.
  const dynamic = [...text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)].map((m) => ({ spec: m[1]!, typeOnly: false }));
  return [...statements, ...dynamic];
}

/** Every file a file loads at run time, itself included. */
function closure(file: string): Set<string> {
  const seen = new Set<string>();
  const walk = (f: string) => {
    if (seen.has(f) || !source.has(f)) return;
    seen.add(f);
    for (const g of runtimeImports(f)) walk(g);
  };
  walk(file);
  return seen;
}

describe("the shape of the code", () => {
  /** The run-time import cycles among `list`. */
  function cyclesOf(list: string[]): string[] {
    const state = new Map<string, "open" | "done">();
    const cycles: string[] = [];
    const stack: string[] = [];
    const visit = (f: string) => {
      state.set(f, "open");
      stack.push(f);
      for (const g of runtimeImports(f)) {
        if (!source.has(g)) continue;
        if (state.get(g) === "open") cycles.push([...stack.slice(stack.indexOf(g)), g].map(rel).join(" -> "));
        else if (!state.has(g)) visit(g);
      }
      stack.pop();
      state.set(f, "done");
    };
    for (const f of list) if (!state.has(f)) visit(f);
    return cycles;
  }

  test("no import cycle at run time, in src/ or in the admin app", () => {
    expect(cyclesOf(files)).toEqual([]);
    expect(adminFiles.length).toBeGreaterThan(50);
    expect(cyclesOf(adminFiles)).toEqual([]);
  });

  test("no domain module imports http/; services.ts loads nothing at run time (wire.ts builds the services)", () => {
    const domain = files.filter((f) => f.startsWith(join(SRC, "domain")));
    const toHttp = domain.flatMap((f) =>
      [...source.get(f)!.matchAll(/^import [^;]*? from "(\.[^"]+)";/gms)]
        .map((m) => resolve(dirname(f), m[1]!))
        .filter((g) => g.startsWith(join(SRC, "http")))
        .map((g) => `${rel(f)} -> ${rel(g)}`),
    );
    expect(toHttp).toEqual([]);
    expect(runtimeImports(join(SRC, "services.ts")).map(rel)).toEqual([]);
  });

  test("a read worker loads nothing of the write side", () => {
    const loaded = [...closure(join(SRC, "domain/reads/worker.ts"))].map(rel);
    const writeSide = loaded.filter((f) => /unit-of-work|events\/outbox|entries\/service|models\/service|webhooks\//.test(f));
    expect(writeSide).toEqual([]);
  });

  test("http/ never touches drizzle or SQL; no route file imports another route file", () => {
    const http = files.filter((f) => f.startsWith(join(SRC, "http")));
    expect(http.filter((f) => /from "drizzle-orm|\.sqlite\.query\(|\.db\.select\(/.test(source.get(f)!)).map(rel)).toEqual([]);
    const routeFiles = new Set(http.filter((f) => /\/(api|v2)\/[^/]+\.ts$/.test(f) && /new Elysia\(/.test(source.get(f)!)));
    const crossing = [...routeFiles].flatMap((f) =>
      runtimeImports(f)
        .filter((g) => routeFiles.has(`${g}`))
        .map((g) => `${rel(f)} -> ${rel(g)}`),
    );
    expect(crossing).toEqual([]);
  });

  test("no module-level mutable state: top-level let, or a Map, Set or WeakMap that is written to", () => {
    const found: string[] = [];
    for (const f of files) {
      // A read worker is its own thread: its module is its state.
      if (f.endsWith("domain/reads/worker.ts")) continue;
      const text = source.get(f)!;
      for (const m of text.matchAll(/^let (\w+)/gm)) found.push(`${rel(f)}: let ${m[1]}`);
      for (const m of text.matchAll(/^const (\w+) = new (?:Map|WeakMap|Set)\b/gm)) {
        if (new RegExp(`\\b${m[1]}\\.(set|add|delete|clear)\\(`).test(text)) found.push(`${rel(f)}: ${m[1]}`);
      }
    }
    expect(found).toEqual([]);
  });

  test("the admin app imports from src/ only types, only from src/shared/; src/shared/ loads nothing but TypeBox", () => {
    const SHARED = join(SRC, "shared");
    const shared = files.filter((f) => f.startsWith(`${SHARED}/`));
    expect(shared.length).toBeGreaterThan(3);
    const fromAdmin = adminFiles.flatMap((f) =>
      importsOf(f)
        .filter((i) => i.spec.startsWith(".") && resolve(dirname(f), i.spec).startsWith(`${SRC}/`))
        .filter((i) => !i.typeOnly || !resolve(dirname(f), i.spec).startsWith(`${SHARED}/`))
        .map((i) => `${rel(f)} -> ${i.spec}${i.typeOnly ? "" : " (at run time)"}`),
    );
    expect(fromAdmin).toEqual([]);
    // Some admin modules do take the shared types (so this rule guards something).
    expect(adminFiles.filter((f) => importsOf(f).some((i) => i.typeOnly && resolve(dirname(f), i.spec).startsWith(`${SHARED}/`))).length).toBeGreaterThan(10);
    const fromShared = shared.flatMap((f) =>
      importsOf(f)
        .filter((i) => !i.typeOnly && i.spec !== "@sinclair/typebox")
        .map((i) => `${rel(f)} -> ${i.spec}`),
    );
    expect(fromShared).toEqual([]);
  });
});
