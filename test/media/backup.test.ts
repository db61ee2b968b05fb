// Backups of media files through the real app with a file replica: an upload writes its backup
// row in the upload's transaction; the media-backup job copies the bytes to the replica (run here
// by hand, as main.ts's timer would); a failing replica keeps the row pending with its error and a
// later attempt; restoreMedia brings every file back byte for byte and refuses an altered copy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { mediaReplica, restoreMedia } from "../../src/domain/media/backup.ts";
import { openLocalStore } from "../../src/infra/media-store/index.ts";
import { type Harness, startApp, withOwner } from "../harness.ts";
import { png64, tempDir } from "./fixtures.ts";

let h: Harness;
let replicaDir: ReturnType<typeof tempDir>;
let token: string;
let projectId: string;

beforeAll(async () => {
  replicaDir = tempDir("capa-replica-");
  h = startApp({ replicaUrl: pathToFileURL(replicaDir.dir).href });
  const o = await withOwner(h);
  token = o.token;
  projectId = o.project.id;
});
afterAll(() => {
  h.close();
  replicaDir.remove();
});

async function upload(name: string, bytes: Uint8Array) {
  const fd = new FormData();
  fd.append("file", new Blob([bytes as BlobPart]), name);
  const r = await h.json("POST", "/v2/media", { raw: fd, token, headers: { "x-svc-project": projectId } });
  expect(r.status).toBe(201);
  return r.body;
}

const backups = () =>
  h.capa.services.projects
    .get(projectId)
    .sqlite.query("SELECT media_id, state, attempts, last_error FROM media_backups ORDER BY created_at, media_id")
    .all() as {
    media_id: string;
    state: string;
    attempts: number;
    last_error: string | null;
  }[];

describe("media backups", () => {
  let files: any[];
  test("the upload writes a pending row; the job copies the bytes to the replica byte for byte", async () => {
    files = [await upload("a.png", await png64()), await upload("b.txt", new TextEncoder().encode("backed up"))];
    expect(backups().map((b) => [b.media_id, b.state])).toEqual(files.map((f) => [f.id, "pending"]).sort((x, y) => (x[0] < y[0] ? -1 : 1)));
    await h.capa.jobs.runNow("media-backup");
    expect(backups().every((b) => b.state === "done")).toBe(true);
    for (const f of files) {
      const original = readFileSync(join(h.dir, "media", projectId, f.id));
      expect(readFileSync(join(replicaDir.dir, "media", projectId, f.id))).toEqual(original);
    }
  });

  test("a replica that refuses keeps the row pending with its error and a later attempt", async () => {
    const f = await upload("c.txt", new TextEncoder().encode("later"));
    // A non-empty folder where the copy must go: the rename into place fails, even for root.
    const blocker = join(replicaDir.dir, "media", projectId, f.id);
    mkdirSync(join(blocker, "x"), { recursive: true });
    await h.capa.jobs.runNow("media-backup");
    const row = backups().find((b) => b.media_id === f.id)!;
    expect(row).toMatchObject({ state: "pending", attempts: 1, last_error: expect.any(String) });
    expect(row.last_error).not.toBe("");
    rmSync(blocker, { recursive: true });
    // The next attempt is 2 s later on the injected clock: the job does nothing before it.
    h.clock.advance(1000);
    await h.capa.jobs.runNow("media-backup");
    expect(backups().find((b) => b.media_id === f.id)!.state).toBe("pending");
    h.clock.advance(1500);
    await h.capa.jobs.runNow("media-backup");
    expect(backups().find((b) => b.media_id === f.id)).toMatchObject({ state: "done", attempts: 1, last_error: null });
    files.push(f);
  });

  test("restoreMedia brings every recorded file back byte for byte, and refuses an altered copy", async () => {
    const target = tempDir("capa-restored-");
    try {
      const store = await openLocalStore(join(target.dir, "media"));
      const replica = mediaReplica({ replicaUrl: pathToFileURL(replicaDir.dir).href });
      const projectFile = h.capa.services.projects.path(projectId);
      expect(await restoreMedia(projectFile, projectId, store, replica)).toBe(files.length);
      for (const f of files) {
        expect(readFileSync(join(target.dir, "media", projectId, f.id))).toEqual(readFileSync(join(h.dir, "media", projectId, f.id)));
      }
      writeFileSync(join(replicaDir.dir, "media", projectId, files[1].id), "tampered");
      const other = tempDir("capa-restored-");
      mkdirSync(join(other.dir, "media"), { recursive: true });
      await expect(restoreMedia(projectFile, projectId, await openLocalStore(join(other.dir, "media")), replica)).rejects.toThrow(
        `the replica's copy of media file ${files[1].id} of project ${projectId} does not match its checksum`,
      );
      other.remove();
    } finally {
      target.remove();
    }
  });
});
