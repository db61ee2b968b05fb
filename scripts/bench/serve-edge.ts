// The server of `bench edge`: the real app on a temp data dir with its jobs running (the purger's
// lanes and the bulk batch loop), purging the Varnish at argv[3] with the token argv[4], on the
// port argv[2] that Varnish's backend.vcl names. Seeded with seedBig's posts and a `bulk` model of
// argv[5] drafts; prints READY with what the driver needs to read, publish and sign in.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { readEdgeSettings } from "../../src/domain/edge/settings.ts";
import { createModel } from "../../src/domain/models/service.ts";
import { createEntry } from "../../src/domain/entries/service.ts";
import { write } from "../../src/domain/unit-of-work.ts";
import { seedBig } from "./seed.ts";

const [port, varnish, token, drafts] = [Number(process.argv[2]), process.argv[3]!, process.argv[4]!, Number(process.argv[5] ?? 3000)];
const edge = readEdgeSettings({ CAPA_EDGE_PURGE: `varnish:${varnish}`, CAPA_EDGE_TOKEN: token, CAPA_EDGE_ALLOW_PRIVATE: "1" });
const capa = createApp(testConfig(mkdtempSync(join(tmpdir(), "capa-bench-edge-")), { rateLimitPerSecond: 1_000_000, rateLimitBurst: 1_000_000, edge }));
const seed = seedBig(capa, 200, 20);
const s = capa.services;
const h = s.projects.get(seed.projectId);
const bulk = createModel(s, h, { name: "Bulk", namespace: "bulk", fields: [{ namespace: "title", type: "string" }] });
// Drafts in one unit: written as the domain writes them, without 3,000 commits.
write(s, h, () => {
  for (let i = 0; i < drafts; i++) createEntry(s, h, "system", { model: "bulk", data: { title: `Bulk ${i}` } });
});
const postId = (
  h.sqlite.query("SELECT id FROM entries WHERE model_id = (SELECT id FROM models WHERE namespace = 'post') ORDER BY created_at LIMIT 1").get() as { id: string }
).id;
const email = (s.control.sqlite.query("SELECT email FROM users LIMIT 1").get() as { email: string }).email;
// Seeding wrote purges of its own (models); they go out before the driver measures anything.
s.edge.goLive();
await s.edge.runDue();
capa.app.listen({ port, hostname: "127.0.0.1" });
capa.jobs.start();
console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${port}`, ...seed, postId, bulkModelId: bulk.id, email, password: "bench-password" })}`);
