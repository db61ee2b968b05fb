// What an endpoint body's model (bodies.ts) cannot say: the URL is absolute https with no
// credentials and, unless private targets are allowed, no private destination (checked through
// DNS); the event list keeps each type once. Create and edit share these, so both refuse alike.
import { fail, badField } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { destinationRefusal } from "./safety.ts";

/** The event types an endpoint may subscribe to. `webhook.test` goes only where a test is asked for. */
export const EVENT_TYPES = [
  "instance.published",
  "instance.unpublished",
  "instance.deleted",
  "instance.restored",
  "model.published",
  "model.deleted",
  "schedule.failed",
  "media.uploaded",
  "media.updated",
  "media.deleted",
] as const;

/** Ticked on a new endpoint when `events` is not sent (interface.md, Event kinds). */
export const DEFAULT_EVENTS = ["instance.published", "instance.unpublished", "instance.deleted"];

/**
 * How to allow a receiver on one's own machine or network, said with every refusal of such a URL,
 * so the person at the webhook form learns the way without reading the docs.
 */
export const LOCAL_RECEIVER =
  "To send to a receiver on this machine or a private network, start Capa with CAPA_WEBHOOK_ALLOW_PRIVATE=1 (the URL must still be https).";

/** The refusal of a URL that is not https, with the way to a local receiver. */
export const HTTPS_ONLY =
  "url must use https: Capa sends events over TLS only. For a local receiver, serve it over https (trust its certificate with CAPA_WEBHOOK_CA_FILE) and start Capa with CAPA_WEBHOOK_ALLOW_PRIVATE=1.";

/** Checks a URL of the model's form (text of at most 2,048 characters): absolute https, no credentials, and (unless allowed) no private destination. */
export async function checkUrl(s: Services, raw: string): Promise<string> {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    badField("url", "url must be an absolute https URL, e.g. https://example.com/hooks/capa");
  }
  if (u.protocol !== "https:") badField("url", HTTPS_ONLY);
  if (u.username || u.password) badField("url", "url must not carry a user name or password; authenticate with the signature");
  if (!s.config.webhookAllowPrivate) {
    const why = await destinationRefusal(u);
    if (why) fail("webhook_url_refused", { message: `The URL is refused: ${why}. ${LOCAL_RECEIVER}`, extra: { field: "url" } });
  }
  return u.href;
}

/** The event types an endpoint subscribes to (the model checks each is one), duplicates dropped. */
export function uniqueEvents(list: readonly string[]): string[] {
  return [...new Set(list)];
}
