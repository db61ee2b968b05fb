// The project settings screen (issue 14 item 9): name and slug (a taken slug said at its field),
// the person's projects with their role and last opening, and deleting the project with its
// slug typed to confirm (owners only).
import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { ApiError, keys } from "../../api/client.ts";
import { projectApi } from "../../api/people.ts";
import { useProject } from "../shell/project-context.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";
import { ProjectsOverview } from "./projects-overview.tsx";

/** The screen. */
export function SettingsScreen() {
  const { project, projects, choose } = useProject();
  const client = useQueryClient();
  const navigate = useNavigate();
  const canEdit = project.role === "owner" || project.role === "admin";
  const [name, setName] = useState(project.name);
  const [slug, setSlug] = useState(project.slug);
  const [saved, setSaved] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [typed, setTyped] = useState("");

  const save = useMutation({
    mutationFn: () => projectApi.update(project.id, { ...(name !== project.name ? { name } : {}), ...(slug !== project.slug ? { slug } : {}) }),
    onSuccess: () => {
      setSaved("Settings saved.");
      void client.invalidateQueries({ queryKey: keys.projects() });
    },
  });
  const remove = useMutation({
    mutationFn: () => projectApi.remove(project.id, typed),
    onSuccess: async () => {
      setDeleting(false);
      // Open another of the person's projects (the shell then acts in it), else the empty shell.
      const next = projects.find((p) => p.id !== project.id);
      client.removeQueries({ predicate: (q) => q.queryKey.includes(project.id) });
      if (next) choose(next.id);
      await client.invalidateQueries({ queryKey: keys.projects() });
      if (!next) void navigate({ to: "/" });
    },
  });
  const err = save.error instanceof ApiError ? save.error : null;
  const slugError = err?.field === "slug" ? err.message : null;
  const nameError = err?.field === "name" ? err.message : null;
  const unchanged = name === project.name && slug === project.slug;

  function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(null);
    save.mutate();
  }
  return (
    <>
      <h1>Settings</h1>
      {!canEdit && <p className="notice">Your role ({project.role}) can read these settings; owners and admins change them.</p>}
      <form className="card form-stack" onSubmit={submit} aria-labelledby="project-settings-title">
        <h2 id="project-settings-title">Name and URL</h2>
        <div className="field">
          <label htmlFor="project-name">Name</label>
          <input
            id="project-name"
            value={name}
            readOnly={!canEdit}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? "project-name-error" : undefined}
          />
          {nameError && (
            <p className="error" id="project-name-error">
              {nameError}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor="project-slug">Slug</label>
          <input
            id="project-slug"
            className="mono"
            value={slug}
            readOnly={!canEdit}
            onChange={(e) => setSlug(e.target.value)}
            aria-invalid={slugError ? true : undefined}
            aria-describedby={slugError ? "project-slug-hint project-slug-error" : "project-slug-hint"}
          />
          <p className="hint" id="project-slug-hint">
            Lower-case letters, digits and dashes; it names the project in URLs.
          </p>
          {slugError && (
            <p className="error" id="project-slug-error">
              {slugError}
            </p>
          )}
        </div>
        {save.error && !slugError && !nameError && <Refusal error={save.error} />}
        <div aria-live="polite">{saved && <p className="notice">{saved}</p>}</div>
        {canEdit && (
          <div className="toolbar">
            <button type="submit" className="btn btn-primary" disabled={save.isPending || unchanged}>
              Save
            </button>
          </div>
        )}
      </form>
      <section className="card form-stack screen-section" aria-labelledby="locales-title">
        <h2 id="locales-title">Locales</h2>
        <p>The languages entries are written in, and what each falls back to.</p>
        <div>
          <Link to="/settings/locales" className="btn">
            Locales
          </Link>
        </div>
      </section>
      <ProjectsOverview projects={projects} current={project.id} choose={choose} />
      {project.role === "owner" && (
        <section className="card form-stack danger-zone screen-section" aria-labelledby="delete-project-title">
          <h2 id="delete-project-title">Delete this project</h2>
          <p>Every model, entry, media file, key and webhook of {project.name} is deleted. This cannot be undone.</p>
          <div>
            <button type="button" className="btn btn-danger" onClick={() => setDeleting(true)}>
              Delete project
            </button>
          </div>
        </section>
      )}
      <Dialog open={deleting} title={`Delete ${project.name}?`} onCancel={() => setDeleting(false)}>
        <form
          className="form-stack"
          onSubmit={(e) => {
            e.preventDefault();
            remove.mutate();
          }}
        >
          <p>
            Type <strong className="mono">{project.slug}</strong> to confirm.
          </p>
          <div className="field">
            <label htmlFor="confirm-slug">Slug of the project</label>
            <input id="confirm-slug" className="mono" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
          </div>
          {remove.error && <Refusal error={remove.error} />}
          <div className="toolbar">
            <button type="submit" className="btn btn-danger-solid" disabled={remove.isPending || typed !== project.slug}>
              Delete for good
            </button>
            <button type="button" className="btn" onClick={() => setDeleting(false)}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
