// Reading an endpoint body: the URL (absolute https, no credentials, and unless private targets
// are allowed no private destination, checked through DNS), the event types, the description
// and the switches. Create and edit share these, so both refuse alike.
import { fail, badField } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { destinationRefusal } from "./safety.ts";

/** The event types an endpoint may subscribe to. `webhook.test` goes only where a test is asked for. */
export const EVENT_TYPES = [
  "instance.published",
  "instance.unpublished",
  "instance.deleted",
  "model.published",
  "model.deleted",
  "schedule.failed",
  "media.uploaded",
  "media.updated",
  "media.deleted",
] as const;

/** Ticked on a new endpoint when `events` is not sent (interface.md, Event kinds). */
export const DEFAULT_EVENTS = ["instance.published", "instance.unpublished", "instance.deleted"];

const MAX_URL = 2048;
const MAX_DESCRIPTION = 500;

/** Checks a URL: absolute https, no credentials, and (unless allowed) no private destination. */
export async function checkUrl(s: Services, raw: unknown): Promise<string> {
  if (typeof raw !== "string" || raw.trim() === "") badField("url", "url must be an https URL");
  if (raw.length > MAX_URL) badField("url", `url must be at most ${MAX_URL} characters`);
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    badField("url", "url must be an absolute https URL, e.g. https://example.com/hooks/capa");
  }
  if (u.protocol !== "https:") badField("url", "url must use https");
  if (u.username || u.password) badField("url", "url must not carry a user name or password; authenticate with the signature");
  if (!s.config.webhookAllowPrivate) {
    const why = await destinationRefusal(u);
    if (why) fail("webhook_url_refused", { message: `The URL is refused: ${why}.`, extra: { field: "url" } });
  }
  return u.href;
}

/** The event types an endpoint subscribes to: a non-empty list, duplicates dropped. */
export function checkEvents(raw: unknown): string[] {
  if (!Array.isArray(raw) || raw.length === 0) badField("events", `events must be a non-empty list of: ${EVENT_TYPES.join(", ")}`);
  const out: string[] = [];
  raw.forEach((t, i) => {
    if (typeof t !== "string" || !(EVENT_TYPES as readonly string[]).includes(t)) {
      badField(`events[${i}]`, `events[${i}] must be one of: ${EVENT_TYPES.join(", ")}`);
    }
    if (!out.includes(t)) out.push(t);
  });
  return out;
}

/** A description of at most 500 characters, or null. */
export function checkDescription(raw: unknown): string | null {
  if (raw === null) return null;
  if (typeof raw !== "string") badField("description", "description must be a string or null");
  if (raw.length > MAX_DESCRIPTION) badField("description", `description must be at most ${MAX_DESCRIPTION} characters`);
  return raw;
}

/** true or false, refused naming `field` otherwise. */
export function checkBool(raw: unknown, field: string): boolean {
  if (typeof raw !== "boolean") badField(field, `${field} must be true or false`);
  return raw;
}
