// A sort on a localized field reads the value after fallback, and its keyset pages still seek
// (decisions.md 13; docs/localization.md, "Filters and sorts"): the statement of every page is a
// search of the one expression index made for the field, the chain and the copy, and every page
// read by cursor holds the rows of the same positions in one big page, for both keys.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, type Harness } from "../harness.ts";
import { planOf, type Recorded, recording } from "../sql-plans.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { createProject } from "../../src/domain/projects/service.ts";
import { createModel } from "../../src/domain/models/service.ts";
import { createEntry } from "../../src/domain/entries/service.ts";
import { publishEntry } from "../../src/domain/entries/publish.ts";
import { putLocales } from "../../src/domain/locales/service.ts";
import { entryLocaleOf } from "../../src/domain/locales/entry-locale.ts";
import { mintKey } from "../../src/domain/keys/mint.ts";
import type { ProjectHandle } from "../../src/storage/pool.ts";
import { readList } from "../../src/domain/reads/query.ts";
import { listArgsOf } from "../../src/domain/reads/args.ts";
import { DRAFTS, PUBLISHED } from "../../src/domain/reads/names.ts";
import { FOUR } from "./fixture.ts";

let h: Harness;
let ph: ProjectHandle;
let titleId: string;
const keys = { dev: "", prod: "" };
const N = 120;

beforeAll(() => {
  h = startApp();
  const s = h.capa.services;
  const owner = createUser(s, { email: "plans@example.com", password: "plans-password-1" });
  const project = createProject(s, { name: "Plans", ownerId: owner.id });
  ph = s.projects.get(project.id);
  const actor = `user:${owner.id}`;
  putLocales(s, ph, FOUR, false, actor);
  const m = createModel(s, ph, { name: "Item", namespace: "item", fields: [{ namespace: "title", type: "string", localized: true }] });
  titleId = m.fields[0]!.id;
  // Titles in English for all, in German for two thirds, in Swiss German for a fifth; some repeat
  // (ties broken by id), a few items have none at all (the null region).
  for (let i = 0; i < N; i++) {
    const slots: Record<string, string> = {};
    if (i % 17) slots.en = `E${String((i * 31) % 50).padStart(2, "0")}`;
    if (i % 3) slots.de = `D${String((i * 7) % 40).padStart(2, "0")}`;
    if (i % 5 === 0) slots["de-CH"] = `C${String(i % 9)}`;
    const e = createEntry(s, ph, actor, { model: "item", data: { title: slots } }, entryLocaleOf(ph, "*"));
    if (i % 2) publishEntry(s, ph, actor, e.id, undefined, { locales: Object.keys(slots).length ? Object.keys(slots) : null });
  }
  keys.dev = mintKey(s, project.id, { kind: "cli" }, { preset: "read_only", environment: "development" }).apiKey;
  keys.prod = mintKey(s, project.id, { kind: "cli" }, { preset: "read_only" }).apiKey;
});
afterAll(() => h.close());

/** The plan of a recorded statement of this project. */
const plan = (q: Recorded) => planOf(ph, q);

const squeeze = (x: string) => x.replace(/[`\s]/g, "");
const chainExpr = (col: string) => `COALESCE(${["de-CH", "de", "en"].map((c) => `json_extract(${col}, '$."${titleId}"."${c}"')`).join(", ")})`;

describe("a sort on a localized field in de-CH (de-CH -> de -> en)", () => {
  for (const env of ["dev", "prod"] as const) {
    for (const sort of ["title", "-title"]) {
      test(`${env}, sort=${sort}: every page searches the chain's index; the cursor walk is the big page`, async () => {
        const params = `locale=de-CH&sort=${sort}`;
        const big = await h.json("GET", `/api/entries/item?select=title&limit=200&${params}`, { headers: { "x-api-key": keys[env] } });
        const all = big.body.data.map((x: { id: string }) => x.id);
        expect(all.length).toBe(env === "dev" ? N : N / 2);
        const walked: string[] = [];
        let after: string | null = null;
        for (let page = 0; page < 30; page++) {
          const q: string = `limit=7&${params}${after ? `&after=${after}` : ""}`;
          const r = await h.json("GET", `/api/entries/item?select=title&${q}`, { headers: { "x-api-key": keys[env] } });
          walked.push(...r.body.data.map((x: { id: string }) => x.id));
          const rec = recording(ph);
          readList(rec.handle, { vis: env === "dev" ? DRAFTS : PUBLISHED, readable: () => true }, "item", listArgsOf(new URLSearchParams(q)));
          // The values region is a search of the chain's index, seeking past the anchor on a cursor page.
          const [steps] = rec.log.filter((x) => x.sql.includes(" ORDER BY ")).map(plan);
          expect(steps).toHaveLength(1);
          const m = /^SEARCH e USING INDEX (\w+) \((.+)\)$/.exec(steps![0]!);
          expect(m).not.toBeNull();
          const index = (ph.sqlite.query("SELECT sql FROM sqlite_master WHERE name = ?").get(m![1]) as { sql: string }).sql;
          expect(squeeze(index)).toContain(squeeze(`(model_id, ${chainExpr(env === "dev" ? "draft_data" : "published_data")}, id)`));
          expect(m![2]).toMatch(after ? /^model_id=\? AND .*[<>]\?$/ : /^model_id=\?/);
          after = r.body.meta.page.next;
          if (!after) break;
        }
        expect(walked).toEqual(all);
      });
    }
  }
});
