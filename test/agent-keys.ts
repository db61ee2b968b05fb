// Keys for the agent-mount tests of workspaces, layouts and field changes: legacy keys minted
// over HTTP (`permission`), a scoped key (refused on the agent mount) and a development read key
// for reading converted values back through GET /api/entries.
import { expect } from "bun:test";
import type { Harness } from "./harness.ts";

/** Mints a legacy key with a permission (read, write, delete or agent) and returns its secret. */
export async function legacyKey(h: Harness, token: string, permission: string): Promise<string> {
  const r = await h.json("POST", "/v2/tenants/api-keys", { token, body: { name: `legacy ${permission}`, permission } });
  expect(r.status).toBe(201);
  return r.body.apiKey as string;
}

/** Mints a scoped key and returns its secret. */
export async function scopedKey(h: Harness, token: string, scopes: string[], environment = "production"): Promise<string> {
  const r = await h.json("POST", "/v2/tenants/api-keys", { token, body: { name: "scoped", scopes, environment } });
  expect(r.status).toBe(201);
  return r.body.apiKey as string;
}

/** Reads entries of a model through the read API with a development key (drafts included). */
export async function readEntries(h: Harness, secret: string, namespace: string, query = "limit=200"): Promise<any[]> {
  const r = await h.json("GET", `/api/entries/${namespace}?${query}`, { headers: { "x-api-key": secret } });
  expect(r.status).toBe(200);
  return r.body.data;
}

export const INSUFFICIENT = { error: "Insufficient permissions" };
export const INVALID_KEY = { error: "Invalid API key" };
