// The rules of a key's own fields (name, environment, expiry, version pin, origins), shared by
// minting and editing so both refuse the same input with the same words.
import { badField } from "../../errors.ts";
import { iso } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import { checkValue } from "../access/body-check.ts";
import { isVersion, VERSIONS } from "../versions.ts";
import { KeyApiVersion, KeyEnvironment, KeyExpiry, KeyName } from "./bodies.ts";

const HOUR = 3600_000;

/** A key's name: 1 to 120 characters, trimmed; "API key" when not sent. */
export function checkName(v: unknown): string {
  if (v === undefined) return "API key";
  checkValue(KeyName, v, "name");
  return v === null ? "API key" : (v as string).trim();
}

/** production (the default) or development. */
export function checkEnvironment(v: unknown): string {
  if (v !== undefined) checkValue(KeyEnvironment, v, "environment");
  return (v as string | null | undefined) ?? "production";
}

/** An ISO 8601 time at least an hour ahead, or null for a key that does not expire. */
export function checkExpiry(s: Services, v: unknown): string | null {
  if (v === undefined || v === null) return null;
  checkValue(KeyExpiry, v, "expiresAt");
  // The pattern fixes the form; the calendar is checked by parsing.
  const t = Date.parse(v as string);
  if (Number.isNaN(t)) badField("expiresAt", "expiresAt must be an ISO 8601 time");
  if (t < s.clock.now() + HOUR) badField("expiresAt", "expiresAt must be at least one hour ahead");
  return iso(t);
}

/** A supported API version, or null when not sent. */
export function checkApiVersion(v: unknown): string | null {
  if (v === undefined) return null;
  checkValue(KeyApiVersion, v, "apiVersion");
  // The list of versions is read now, not when the model was made: a date may be registered since.
  if (typeof v === "string" && !isVersion(v)) badField("apiVersion", `apiVersion must be a supported version: ${VERSIONS.map((x) => x.date).join(", ")}`);
  return v as string | null;
}

/** Normalises an origin: scheme, host and port only. */
export function checkOrigin(v: unknown, path: string): string {
  if (typeof v !== "string") badField(path, `${path} must be an origin such as https://example.com`);
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    badField(path, `${path} must be an origin such as https://example.com`);
  }
  if (!["http:", "https:"].includes(u.protocol) || u.pathname !== "/" || u.search || u.hash || u.username) {
    badField(path, `${path} must be an origin such as https://example.com, with no path`);
  }
  // A browser sends one exact origin; a pattern would never match it, and reading `*` as "any"
  // would silently drop the binding the list exists for.
  if (u.hostname.includes("*")) badField(path, `${path} must be one origin such as https://example.com; wildcards are not supported, list each origin`);
  return u.origin;
}
