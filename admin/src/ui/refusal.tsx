// How a screen says the server refused (a 403 for the person's role, say): a clear sentence in
// an alert, never a broken screen.
import { ApiError } from "../api/client.ts";

/** The message of a failed request, with the role hint for a 403. */
export function Refusal({ error }: { error: Error }) {
  const forbidden = error instanceof ApiError && error.status === 403;
  return (
    <p role="alert" className="form-error">
      {forbidden ? `Your role cannot do this here: ${error.message}` : error.message}
    </p>
  );
}

/** Whether a project role may write, publish, schedule and delete entries (every role but viewer holds `instance:*`). */
export function canEditEntries(role: string): boolean {
  return role !== "viewer";
}

/** Whether a project role may administer keys and webhooks (decisions.md 2: owner, admin, developer). */
export function canIntegrate(role: string): boolean {
  return role === "owner" || role === "admin" || role === "developer";
}

/** Whether a project role may upload, edit and delete media (decisions.md 2: owner, admin, editor). */
export function canEditMedia(role: string): boolean {
  return role === "owner" || role === "admin" || role === "editor";
}
