// Several files at once: the bar that appears while files are selected in the grid or the list,
// with Move to a folder and Delete. There is no bulk route for media, so each file is its own
// PATCH or DELETE (documented routes a script would call), four at a time, with progress; "all
// N that match" first reads every matching file by cursor, then acts on them. Files in use are
// not deleted: the server answers 409 media_in_use for each, and the dialog names them with the
// entries that use them, offering "Delete anyway" for those.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api, keys } from "../../api/client.ts";
import { type MediaFile, type MediaFilter, type MediaUse, mediaApi, mediaKeys } from "../../api/media.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { folderPath } from "./folder-nav.tsx";

/** Runs `fn` on every item, at most `n` at once; the answers keep the items' order. */
export async function fewAtATime<T, R>(items: T[], n: number, fn: (t: T) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const out: PromiseSettledResult<R>[] = new Array(items.length);
  let at = 0;
  const worker = async () => {
    while (at < items.length) {
      const i = at++;
      out[i] = await fn(items[i]!).then(
        (value) => ({ status: "fulfilled", value }) as const,
        (reason: unknown) => ({ status: "rejected", reason }) as const,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

/** The `Move to folder` choice of the root ("" is no choice yet). */
const ROOT = "root";

const files = (n: number) => (n === 1 ? "1 file" : `${n} files`);

/** A file kept because entries use it, with those entries. */
interface Kept {
  file: MediaFile;
  entries: MediaUse[];
}

/** How far an action over many files has got. */
interface Progress {
  verb: string;
  done: number;
  of: number;
}

/**
 * The selection's actions; `onDone` clears the selection once an action has gone through. With
 * `matching` set, the action is on every file the list's filter matches (`total` of them).
 */
export function BulkBar({
  project,
  selected,
  matching,
  onDone,
}: {
  project: string;
  selected: MediaFile[];
  matching: { filter: MediaFilter; total: number } | null;
  onDone(): void;
}) {
  const client = useQueryClient();
  const folders = useQuery({ queryKey: keys.mediaFolders(project), queryFn: api.mediaFolders.list });
  const [target, setTarget] = useState("");
  const [confirm, setConfirm] = useState(false);
  const [kept, setKept] = useState<Kept[] | null>(null);
  const [said, setSaid] = useState("");
  const [progress, setProgress] = useState<Progress | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: mediaKeys.all(project) });

  /** Runs `fn` on each file, four at a time, counting them done for the progress bar. */
  async function each<R>(verb: string, list: MediaFile[], fn: (f: MediaFile) => Promise<R>) {
    let done = 0;
    setProgress({ verb, done, of: list.length });
    try {
      return await fewAtATime(list, 4, async (f) => {
        try {
          return await fn(f);
        } finally {
          done++;
          setProgress({ verb, done, of: list.length });
        }
      });
    } finally {
      setProgress(null);
    }
  }
  /** The files an action is on: those ticked, or every file that matches, read first. */
  async function targets(): Promise<MediaFile[]> {
    if (!matching) return selected;
    setProgress({ verb: "Finding the files", done: 0, of: matching.total });
    return mediaApi.everyMatch(matching.filter);
  }

  const move = useMutation({
    mutationFn: async () => {
      const folder = target === ROOT ? null : target;
      const list = await targets();
      const results = await each("Moving", list, (f) => mediaApi.update(f.id, { folder }));
      const failed = results.filter((r) => r.status === "rejected").length;
      if (failed)
        throw new Error(
          `${files(failed)} of ${list.length} could not be moved: ${(results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason}`,
        );
      return { folder, count: list.length };
    },
    onSuccess: ({ folder, count }) => {
      const name = folder ? (folders.data?.find((f) => f.id === folder)?.name ?? "the folder") : "Not in a folder";
      setSaid(`${files(count)} moved to ${name}.`);
      void refresh();
      onDone();
    },
    onSettled: () => void refresh(),
  });

  const remove = useMutation({
    mutationFn: async (force: boolean) => {
      const list = force ? (kept ?? []).map((k) => k.file) : await targets();
      const results = await each("Deleting", list, (f) => mediaApi.remove(f.id, force));
      const inUse: Kept[] = [];
      const other: string[] = [];
      results.forEach((r, i) => {
        if (r.status === "fulfilled") return;
        const e = r.reason;
        if (e instanceof ApiError && e.code === "media_in_use") inUse.push({ file: list[i]!, entries: (e.body?.entries as MediaUse[]) ?? [] });
        else other.push(`${list[i]!.filename}: ${e instanceof Error ? e.message : String(e)}`);
      });
      if (other.length) throw new Error(`Not deleted: ${other.join("; ")}`);
      return { deleted: list.length - inUse.length, inUse };
    },
    onSuccess: ({ deleted, inUse }) => {
      setSaid(`${files(deleted)} deleted.`);
      if (inUse.length) setKept(inUse);
      else {
        setConfirm(false);
        setKept(null);
      }
      onDone();
    },
    onSettled: () => void refresh(),
  });

  const close = () => {
    setConfirm(false);
    setKept(null);
    remove.reset();
  };
  const all = folders.data ?? [];
  const n = matching ? matching.total : selected.length;
  const bar = progress && (
    <div className="bulk-progress">
      <progress max={progress.of} value={progress.done} aria-label={`${progress.verb}: ${progress.done} of ${progress.of}`} />
      <span>{`${progress.verb}: ${progress.done.toLocaleString("en")} of ${files(progress.of)}`}</span>
    </div>
  );
  return (
    <>
      {n > 0 && (
        <section className="bulk-bar media-bulk" aria-label="Selected files">
          <strong>{matching ? `All ${files(n)} that match selected` : `${files(n)} selected`}</strong>
          <div className="field">
            <label htmlFor="media-move-to">Move to folder</label>
            <select id="media-move-to" value={target} onChange={(e) => setTarget(e.target.value)}>
              <option value="">Choose a folder</option>
              <option value={ROOT}>Not in a folder</option>
              {all.map((f) => (
                <option key={f.id} value={f.id}>
                  {folderPath(all, f.id)
                    .map((x) => x.name)
                    .join(" / ")}
                </option>
              ))}
            </select>
          </div>
          <button type="button" className="btn" disabled={move.isPending || target === ""} onClick={() => move.mutate()}>
            {`Move ${files(n)}`}
          </button>
          <button type="button" className="btn btn-danger" onClick={() => setConfirm(true)}>
            {`Delete ${files(n)}`}
          </button>
          <button type="button" className="btn btn-quiet" onClick={onDone}>
            Clear selection
          </button>
          {!confirm && bar}
          {move.error && (
            <p role="alert" className="form-error">
              {move.error.message}
            </p>
          )}
        </section>
      )}
      <p className="muted" role="status">
        {said}
      </p>
      <Dialog open={confirm} title={kept ? `${files(kept.length)} in use` : `Delete ${files(n)}?`} onCancel={close}>
        {kept ? (
          <>
            <p role="alert">{`${said} ${kept.length === 1 ? "This file is" : "These files are"} used by entries and ${kept.length === 1 ? "was" : "were"} kept; deleting ${kept.length === 1 ? "it" : "them"} leaves those entries with a missing file:`}</p>
            <ul className="usage-list">
              {kept.map((k) => (
                <li key={k.file.id}>{`${k.file.filename}: used by ${k.entries.map((u) => u.title?.trim() || "Untitled entry").join(", ")}`}</li>
              ))}
            </ul>
          </>
        ) : (
          <p>{`The ${n === 1 ? "file leaves" : "files leave"} the library and ${n === 1 ? "its URL stops" : "their URLs stop"} working. Files used by entries are kept unless you confirm again.`}</p>
        )}
        {bar}
        {remove.error && (
          <p role="alert" className="form-error">
            {remove.error.message}
          </p>
        )}
        <div className="toolbar">
          <button type="button" className="btn btn-danger-solid" disabled={remove.isPending} onClick={() => remove.mutate(kept !== null)}>
            {kept ? "Delete anyway" : `Delete ${files(n)}`}
          </button>
          <button type="button" className="btn" onClick={close}>
            {kept ? "Keep them" : "Cancel"}
          </button>
        </div>
      </Dialog>
    </>
  );
}
