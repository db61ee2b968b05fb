// Replacing a file's bytes (decisions.md 15, PUT /v2/media/:id/file): the record keeps its id,
// alt, title, folder and focal point, takes the new file's name, facts and checksum, and gets a
// new URL; entries hold the id, so they follow. A file that an image field uses can only be
// replaced by an image: the server refuses anything else (409 file_kind_in_use) and this says so,
// naming the entries.
import { useId, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../../api/client.ts";
import { type MediaFile, type MediaUse, mediaKeys, mediaApi, sizeWords, uploadProblem } from "../../api/media.ts";
import { UsageList } from "./usage.tsx";

/** "Replace file": a file input, its progress, and what came of it. */
export function ReplaceFile({ project, file }: { project: string; file: MediaFile }) {
  const client = useQueryClient();
  const id = useId();
  const [sent, setSent] = useState<number | null>(null);
  const [said, setSaid] = useState("");
  const [refusal, setRefusal] = useState<{ message: string; entries: MediaUse[] } | null>(null);

  async function replace(f: File | undefined) {
    if (!f) return;
    setSent(0);
    setSaid("");
    setRefusal(null);
    try {
      const next = await mediaApi.replace(file.id, f, setSent);
      client.setQueryData(mediaKeys.file(project, file.id), next);
      void client.invalidateQueries({ queryKey: mediaKeys.all(project), predicate: (q) => q.queryKey[2] !== "file" });
      setSaid(`Replaced by ${next.filename} (${sizeWords(next.size)}). The file has a new URL; the entries that use it show the new file.`);
    } catch (e) {
      if (e instanceof ApiError && e.code === "file_kind_in_use") setRefusal({ message: e.message, entries: (e.body?.entries as MediaUse[]) ?? [] });
      else setRefusal({ message: uploadProblem(e), entries: [] });
    } finally {
      setSent(null);
    }
  }

  return (
    <div className="replace-row">
      <label className="btn" htmlFor={id}>
        {sent !== null ? `Replacing… ${Math.round(sent * 100)}%` : "Replace file"}
        <input
          id={id}
          type="file"
          className="visually-hidden"
          disabled={sent !== null}
          onChange={(e) => {
            void replace(e.target.files?.[0]);
            e.target.value = "";
          }}
        />
      </label>
      {sent !== null && <progress max={1} value={sent} aria-label={`Replacing ${file.filename}`} />}
      <p className="muted" role="status">
        {said}
      </p>
      {refusal && (
        <div role="alert" className="form-error">
          <p>{`Not replaced. ${refusal.message}`}</p>
          {refusal.entries.length > 0 && <UsageList project={project} entries={refusal.entries} />}
        </div>
      )}
    </div>
  );
}
