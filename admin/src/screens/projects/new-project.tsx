// New project in the app (issue 27, projects): a name, then straight into the new project, where
// the person is owner. A name the server refuses (empty, blank, past 120 characters) is said at
// the input in the server's words.
import { type FormEvent, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, keys } from "../../api/client.ts";
import { homeApi } from "../../api/home.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";

/** The `New project` button and its dialog; `onCreated` opens the new project. */
export function NewProject({ onCreated }: { onCreated(id: string): void }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () => homeApi.createProject(name),
    onSuccess: async (p) => {
      await client.invalidateQueries({ queryKey: keys.projects() });
      setOpen(false);
      setName("");
      onCreated(p.id);
    },
  });
  const err = create.error instanceof ApiError ? create.error : null;
  const nameError = err && (err.field === "name" || err.status === 400) ? err.message : null;
  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate();
  }
  return (
    <>
      <button
        type="button"
        className="btn"
        onClick={() => {
          create.reset();
          setOpen(true);
        }}
      >
        New project
      </button>
      <Dialog open={open} title="New project" onCancel={() => setOpen(false)}>
        <form className="form-stack" onSubmit={submit}>
          <div className="field">
            <label htmlFor="new-project-name">Name</label>
            <input
              id="new-project-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? "new-project-name-error" : "new-project-name-hint"}
            />
            <p className="hint" id="new-project-name-hint">
              1 to 120 characters. You become its owner; its URL name is made from it.
            </p>
            {nameError && (
              <p className="error" id="new-project-name-error">
                {nameError}
              </p>
            )}
          </div>
          {create.error && !nameError && <Refusal error={create.error} />}
          <div className="toolbar">
            <button type="submit" className="btn btn-primary" disabled={create.isPending}>
              Create project
            </button>
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
