// The webhook form: URL, description, events and the content option; `New webhook` creates,
// `Edit` on an endpoint's page saves the same inputs with PATCH.
import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { ApiError } from "../../api/client.ts";
import { EVENT_WORDS, type EventType, hookApi, type Endpoint, type NewEndpoint } from "../../api/webhooks.ts";
import { Refusal } from "../../ui/refusal.tsx";

const DEFAULT_EVENTS = ["instance.published", "instance.unpublished", "instance.deleted"];

/** The form; `onCreated` receives the answer holding the signing secret, `onSaved` an edit's answer. */
export function NewWebhookForm(props: {
  initial?: Endpoint;
  onCreated?(e: Endpoint & { secret: string }): void;
  onSaved?(e: Endpoint): void;
  onCancel(): void;
}) {
  const i = props.initial;
  const [url, setUrl] = useState(i?.url ?? "");
  const [description, setDescription] = useState(i?.description ?? "");
  const [events, setEvents] = useState(new Set(i?.events ?? DEFAULT_EVENTS));
  const [content, setContent] = useState(i?.includeContent ?? false);
  const create = useMutation({
    mutationFn: (body: NewEndpoint) => (i ? hookApi.update(i.id, { ...body, description: body.description ?? null }) : hookApi.create(body)),
    onSuccess: (e) => (i ? props.onSaved?.(e) : props.onCreated?.(e as Endpoint & { secret: string })),
  });
  const err = create.error instanceof ApiError ? create.error : null;
  const urlError = err && err.field === "url" ? err.message : null;
  const eventsError = err?.field?.startsWith("events") ? err.message : null;

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate({
      url: url.trim(),
      events: (Object.keys(EVENT_WORDS) as EventType[]).filter((t) => events.has(t)),
      includeContent: content,
      ...(description.trim() ? { description: description.trim() } : {}),
    });
  }
  return (
    <form className="card form-stack" onSubmit={submit} aria-labelledby="new-hook-title">
      <h2 id="new-hook-title">{i ? "Edit webhook" : "New webhook"}</h2>
      <div className="field">
        <label htmlFor="hook-url">URL</label>
        <input
          id="hook-url"
          type="url"
          required
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://example.com/capa-hook"
          aria-invalid={urlError ? true : undefined}
          aria-describedby={urlError ? "hook-url-error" : undefined}
        />
        {urlError && (
          <p className="error" id="hook-url-error">
            {urlError}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="hook-description">Description</label>
        <input id="hook-description" value={description} onChange={(e) => setDescription(e.target.value)} />
      </div>
      <fieldset className="scope-grid">
        <legend>Events</legend>
        {Object.entries(EVENT_WORDS).map(([type, word]) => (
          <label key={type}>
            <input
              type="checkbox"
              checked={events.has(type)}
              onChange={() => {
                const next = new Set(events);
                if (!next.delete(type)) next.add(type);
                setEvents(next);
              }}
            />{" "}
            {word}
          </label>
        ))}
      </fieldset>
      {eventsError && <p className="form-error">{eventsError}</p>}
      <label>
        <input type="checkbox" checked={content} onChange={(e) => setContent(e.target.checked)} /> Include content data
      </label>
      {create.error && !urlError && !eventsError && <Refusal error={create.error} />}
      <div className="toolbar">
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {i ? "Save webhook" : "Create webhook"}
        </button>
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
