// The command palette (Ctrl/Cmd+K): one search box over the screens, the models, "New entry in
// <model>", entries by title and media files by name, title and alt, as an ARIA combobox with a
// listbox. Arrow keys move, Enter goes, Esc closes. Entries and files come from one request,
// GET /v2/search, made once typing settles.
import { useDeferredValue, useMemo, useState, type KeyboardEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { api, keys } from "../../api/client.ts";
import { searchApi } from "../../api/search.ts";
import { signOut } from "../../api/session.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { useProject } from "../shell/project-context.ts";
import { screenLinksFor } from "../shell/screen-links.ts";
import { filterCommands, foundCommands, SEARCH_LIMIT, staticCommands, type Command } from "./commands.ts";

/** The palette; `onShortcuts` swaps it for the shortcuts list. */
export function CommandPalette({ onClose, onShortcuts }: { onClose(going?: boolean): void; onShortcuts(): void }) {
  const { project } = useProject();
  const navigate = useNavigate();
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  // Searching entries waits for typing to settle (React defers it), and starts at two characters.
  const query = useDeferredValue(text.trim());
  const found = useQuery({
    queryKey: ["palette-search", project.id, query],
    enabled: query.length >= 2,
    staleTime: 10_000,
    queryFn: () => searchApi.search(query, SEARCH_LIMIT),
  });

  const base = useMemo(() => staticCommands(models.data ?? [], screenLinksFor(project.role), project.role), [models.data, project.role]);
  const shown: Command[] = useMemo(
    () => [...filterCommands(base, text), ...(query.length >= 2 && found.data ? foundCommands(found.data) : [])],
    [base, text, query, found.data],
  );
  const current = shown[Math.min(active, shown.length - 1)];

  function run(c: Command | undefined) {
    if (!c) return;
    if (c.go === "shortcuts") return onShortcuts();
    onClose(c.go !== "sign-out");
    if (c.go === "sign-out") signOut();
    else void navigate({ to: c.go.to, params: c.go.params });
  }

  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const n = shown.length;
      if (n > 0) setActive((a) => (Math.min(a, n - 1) + (e.key === "ArrowDown" ? 1 : n - 1)) % n);
    } else if (e.key === "Enter") {
      e.preventDefault();
      run(current);
    }
  }

  // Searching until the entries of what is typed now have come (the deferred text may lag a render).
  const searching = text.trim().length >= 2 && (query !== text.trim() || found.isFetching);
  const status = searching ? "Searching entries and media…" : `${shown.length} ${shown.length === 1 ? "result" : "results"}`;
  return (
    <Dialog open title="Command palette" onCancel={() => onClose()}>
      <div className="palette">
        <label htmlFor="palette-input" className="visually-hidden">
          Search commands
        </label>
        <input
          id="palette-input"
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-autocomplete="list"
          aria-activedescendant={current ? `palette-${current.id}` : undefined}
          autoComplete="off"
          placeholder="Go to a model, entry or screen…"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKey}
        />
        <p className="muted palette-status" role="status">
          {status}
        </p>
        {/* The input keeps focus (aria-activedescendant); an option takes focus only when clicked. */}
        <div id="palette-list" role="listbox" aria-label="Results" className="palette-list">
          {shown.map((c, i) => (
            <div
              key={c.id}
              tabIndex={-1}
              id={`palette-${c.id}`}
              role="option"
              aria-selected={c === current}
              className={c === current ? "palette-option active" : "palette-option"}
              onMouseMove={() => setActive(i)}
              onClick={() => run(c)}
              onKeyDown={(e) => e.key === "Enter" && run(c)}
            >
              <span>{c.label}</span> <span className="muted">{c.hint}</span>
            </div>
          ))}
        </div>
      </div>
    </Dialog>
  );
}
