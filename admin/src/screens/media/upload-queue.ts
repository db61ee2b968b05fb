// The library's upload queue: every file is its own POST /v2/media, at most SENDING at once, so a
// drop of 200 files becomes 200 rows that wait their turn instead of 200 requests racing (and the
// server's 50-files-per-request limit never applies). Nothing is dropped: a file leaves "waiting"
// only to be sent, and ends "done", "failed" with the reason, or "duplicate" with the file the
// library holds already, which the person may use or upload again as a second copy.
import { useCallback, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { duplicateOf, type MediaFile, mediaApi, mediaKeys, uploadProblem } from "../../api/media.ts";

/** Files sent at once: enough to keep the line busy, few enough for the server's probes. */
export const SENDING = 3;
/** How often the grid is refreshed while a long queue runs (and once when it ends). */
const REFRESH_MS = 1500;

/** One file of the queue. */
export interface Upload {
  key: number;
  name: string;
  /** The share of the bytes sent, 0 to 1. */
  sent: number;
  state: "waiting" | "sending" | "done" | "failed" | "duplicate";
  problem?: string;
  /** The record made (done), or the one the library holds with these bytes (duplicate). */
  file?: MediaFile;
}

interface Job {
  key: number;
  file: File;
  folder: string | null;
  duplicate: boolean;
}

let next = 0;

/** The queue of uploads into `folder` (null: no folder) of a project's library. */
export function useUploads(project: string, folder: string | null) {
  const client = useQueryClient();
  const [items, setItems] = useState<Upload[]>([]);
  const jobs = useRef<Job[]>([]);
  const running = useRef(0);
  const dirty = useRef(false);
  const patch = useCallback((key: number, p: Partial<Upload>) => setItems((xs) => xs.map((x) => (x.key === key ? { ...x, ...p } : x))), []);

  const refresh = useCallback(() => {
    if (!dirty.current) return;
    dirty.current = false;
    void client.invalidateQueries({ queryKey: mediaKeys.all(project) });
  }, [client, project]);
  // While files arrive, the grid shows them every REFRESH_MS rather than once a file.
  useEffect(() => {
    const t = setInterval(refresh, REFRESH_MS);
    return () => clearInterval(t);
  }, [refresh]);

  const pump = useCallback(() => {
    while (running.current < SENDING && jobs.current.length > 0) {
      const job = jobs.current.shift()!;
      running.current++;
      patch(job.key, { state: "sending", sent: 0 });
      mediaApi
        .upload(job.file, { folder: job.folder, duplicate: job.duplicate, onProgress: (sent) => patch(job.key, { sent }) })
        .then(
          (file) => {
            dirty.current = true;
            patch(job.key, { state: "done", sent: 1, file });
          },
          (e) => {
            const existing = duplicateOf(e);
            if (existing) patch(job.key, { state: "duplicate", file: existing, problem: undefined });
            else patch(job.key, { state: "failed", problem: uploadProblem(e) });
          },
        )
        .finally(() => {
          running.current--;
          if (running.current === 0 && jobs.current.length === 0) refresh();
          pump();
        });
    }
  }, [patch, refresh]);

  const enqueue = useCallback(
    (list: Job[]) => {
      jobs.current.push(...list);
      pump();
    },
    [pump],
  );

  // Each row's file, kept until the row is cleared so "Upload a copy anyway" can send it again.
  const sources = useRef(new Map<number, Job>());
  const add = useCallback(
    (files: File[]) => {
      const list = files.map((file) => ({ key: ++next, file, folder, duplicate: false }));
      for (const j of list) sources.current.set(j.key, j);
      setItems((xs) => [...xs, ...list.map((j) => ({ key: j.key, name: j.file.name, sent: 0, state: "waiting" as const }))]);
      enqueue(list);
    },
    [folder, enqueue],
  );

  /** Sends a refused duplicate again as a second copy. */
  const keepCopy = useCallback(
    (key: number) => {
      const job = sources.current.get(key);
      if (!job) return;
      patch(key, { state: "waiting", sent: 0, file: undefined });
      enqueue([{ ...job, duplicate: true }]);
    },
    [patch, enqueue],
  );

  const clear = useCallback(() => {
    setItems((xs) => {
      const kept = xs.filter((x) => x.state === "sending" || x.state === "waiting");
      for (const k of sources.current.keys()) if (!kept.some((x) => x.key === k)) sources.current.delete(k);
      return kept;
    });
  }, []);
  return { items, add, keepCopy, clear };
}
