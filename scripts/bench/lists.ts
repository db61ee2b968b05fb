// `bench lists` (issue 27, lists): the management list of 10,000 entries sorted by a field, as the
// app asks for it, in process: page 1 against page 400 by cursor (the last page of 25), each
// with the total count and who saved each entry. The goals: page 1 under 300 ms, page 400 within
// 1.2 times page 1 (keyset: a deep page costs what page 1 costs). Also the first request of a
// field sort, which makes the field's expression index once, and a search as the app types it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import type { Figure } from "./entries.ts";
import { median } from "./load.ts";
import { seedBig } from "./seed.ts";

const ENTRIES = 10_000;
const PAGE = 25;
const RUNS = 60;

export async function benchLists(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), "capa-bench-lists-"));
  const capa = createApp(testConfig(dir));
  const out: Figure[] = [];
  try {
    const seed = seedBig(capa, ENTRIES, 100);
    const login = await capa.app.handle(
      new Request("http://localhost/v2/user/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: seed.email, password: "bench-password" }),
      }),
    );
    const token = ((await login.json()) as { accessToken: string }).accessToken;
    const get = async (q: string) => {
      const t = performance.now();
      const r = await capa.app.handle(
        new Request(`http://localhost/v2/model-instances?model=post&limit=${PAGE}${q}`, {
          headers: { authorization: `Bearer ${token}`, "x-svc-project": seed.projectId },
        }),
      );
      const body = (await r.json()) as { next: string | null; total: number; data: unknown[] };
      if (r.status !== 200) throw new Error(`list answered ${r.status}: ${JSON.stringify(body)}`);
      return { ms: performance.now() - t, next: body.next, total: body.total, rows: body.data.length };
    };
    const made = await get("&sort=title");
    out.push({
      figure: "first request sorted by title (makes the field's index once), ms",
      value: made.ms.toFixed(1),
      baseline: "300",
      ratio: (made.ms / 300).toFixed(2),
    });
    for (const sort of ["title", "-price"]) {
      // The cursor of page 400: walk the 399 pages before it, as a person paging to the end would.
      let next: string | null = null;
      for (let p = 1; p < 400; p++) next = (await get(`&sort=${sort}${next ? `&after=${next}` : ""}`)).next;
      const deep = await get(`&sort=${sort}&after=${next}`);
      if (deep.rows !== PAGE || deep.next !== null || deep.total !== ENTRIES) throw new Error(`page 400 of ${sort}: ${deep.rows} rows, next ${deep.next}`);
      const firstMs: number[] = [];
      const deepMs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        firstMs.push((await get(`&sort=${sort}`)).ms);
        deepMs.push((await get(`&sort=${sort}&after=${next}`)).ms);
      }
      const a = median(firstMs);
      const b = median(deepMs);
      out.push({ figure: `sort=${sort}: page 1, p50 ms (goal < 300)`, value: a.toFixed(2), baseline: "300", ratio: (a / 300).toFixed(3) });
      out.push({
        figure: `sort=${sort}: page 400 by cursor vs page 1, p50 ms (goal ratio <= 1.2)`,
        value: b.toFixed(2),
        baseline: a.toFixed(2),
        ratio: (b / a).toFixed(2),
      });
    }
    const typed: number[] = [];
    for (let i = 0; i < RUNS; i++) typed.push((await get(`&sort=title&q=${encodeURIComponent(`number ${i * 13}`)}`)).ms);
    const q = median(typed);
    out.push({ figure: "sort=title with q (as typed), page 1 with the count, p50 ms", value: q.toFixed(2), baseline: "300", ratio: (q / 300).toFixed(3) });
  } finally {
    capa.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
