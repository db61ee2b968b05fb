// `bench media-statements`: statements a 25-entry page costs with a media field of library
// references against the same page with the old full-object media values (issue 12: no more
// than one statement more). The reads run in process with the project file's statements counted.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { createUser } from "../../src/domain/users/service.ts";
import { createProject } from "../../src/domain/projects/service.ts";
import { createModel } from "../../src/domain/models/service.ts";
import { createEntry } from "../../src/domain/entries/service.ts";
import { runReadJob } from "../../src/domain/reads/job.ts";
import { listArgsOf } from "../../src/domain/reads/args.ts";
import { png64 } from "../../test/media/fixtures.ts";
import type { Figure } from "./entries.ts";

/** Statements of one 25-entry list read of each model, and the figure comparing them. */
export async function benchMediaStatements(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), "capa-bench-media-"));
  const capa = createApp(testConfig(dir));
  try {
    const s = capa.services;
    const owner = createUser(s, { email: "bench@example.com", password: "bench-password-1" });
    const project = createProject(s, { name: "Bench", slug: "bench-media", ownerId: owner.id });
    const h = s.projects.get(project.id);
    const login = await capa.app.handle(
      new Request("http://capa.test/v2/user/login", { method: "POST", body: JSON.stringify({ email: "bench@example.com", password: "bench-password-1" }) }),
    );
    const token = ((await login.json()) as { accessToken: string }).accessToken;
    const fd = new FormData();
    fd.append("file", new Blob([(await png64()) as BlobPart]), "bench.png");
    const up = await capa.app.handle(
      new Request("http://capa.test/v2/media", { method: "POST", body: fd, headers: { authorization: `Bearer ${token}`, "x-svc-project": project.id } }),
    );
    const file = (await up.json()) as { id: string };
    const fields = [
      { namespace: "title", type: "string" },
      { namespace: "cover", type: "image" },
    ];
    createModel(s, h, { name: "Ref", namespace: "ref", fields });
    createModel(s, h, { name: "Full", namespace: "full", fields });
    const full = { id: "ext", url: "https://img.example.com/a.png", alt: "A", type: "image", width: 64, height: 48 };
    for (let i = 0; i < 25; i++) {
      createEntry(s, h, "system", { model: "ref", data: { title: `r${i}`, cover: { id: file.id } } });
      createEntry(s, h, "system", { model: "full", data: { title: `f${i}`, cover: full } });
    }
    let count = 0;
    const query = h.sqlite.query.bind(h.sqlite);
    h.sqlite.query = ((sql: string) => {
      count++;
      return query(sql);
    }) as typeof h.sqlite.query;
    const statements = (ns: string) => {
      const job = { projectId: project.id, ns, args: listArgsOf(new URLSearchParams("limit=25")), production: false, preview: null, grants: ["instance:read"] };
      runReadJob(h, job);
      count = 0;
      runReadJob(h, job);
      return count;
    };
    const withRefs = statements("ref");
    const withObjects = statements("full");
    return [
      {
        figure: "media: statements for a 25-entry page with a media field of library references (target: at most one more than without)",
        value: String(withRefs),
        baseline: `${withObjects} (full media objects)`,
        ratio: withObjects > 0 ? (withRefs / withObjects).toFixed(2) : "n/a",
      },
    ];
  } finally {
    capa.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
