// Helpers shared by the key and /api shell tests: raw answers (text kept, so a secret can be
// looked for in it), the /api error envelope checked whole, members with other roles.
import { expect } from "bun:test";
import { BASE, type Harness } from "../harness.ts";

export const V1 = "2026-10-01";
export const DOCS = `${BASE}/docs/errors/`;
export const KEYED_VARY = "Origin, x-api-key, Svc-Version, Svc-Contract";
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const HOUR = 3600_000;

export interface Answer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

type Opts = Parameters<Harness["req"]>[2];

/** A request whose raw text and headers are kept; every answer is also pushed to `log` when given. */
export async function call(h: Harness, method: string, path: string, opts?: Opts, log?: Answer[]): Promise<Answer> {
  const res = await h.req(method, path, opts);
  const text = await res.text();
  let body: any = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  const a = { status: res.status, body, text, headers: res.headers };
  log?.push(a);
  return a;
}

export interface ApiErrorWant {
  status: number;
  type: string;
  code: string;
  /** The `param` the error must name; absent when not given. */
  param?: string;
  /** The hint must contain this (it is always present on these codes). */
  hint?: string;
  /** Version in meta and Svc-Version (default 2026-10-01). */
  version?: string;
  /** The key id in Svc-Key-Id; when not given the header must be absent. */
  keyId?: string;
  /** A keyed route: Svc-Contract 1 and the keyed Vary. Otherwise both absent unless `vary` says. */
  keyed?: boolean;
  vary?: string;
}

/** Checks a whole /api error envelope and the headers of interface.md's table. */
export function expectApiError(r: Answer, want: ApiErrorWant): void {
  expect({ status: r.status, code: r.body?.error?.code }).toEqual({ status: want.status, code: want.code });
  expect(Object.keys(r.body)).toEqual(["error", "meta"]);
  expect(r.body).not.toHaveProperty("data");
  const e = r.body.error;
  expect(Object.keys(e)).toEqual(["type", "code", "message", ...(want.param !== undefined ? ["param"] : []), "hint", "docs"]);
  expect(e.type).toBe(want.type);
  expect(typeof e.message).toBe("string");
  expect(e.message.length).toBeGreaterThan(0);
  if (want.param !== undefined) expect(e.param).toBe(want.param);
  expect(typeof e.hint).toBe("string");
  expect(e.hint.length).toBeGreaterThan(0);
  if (want.hint !== undefined) expect(e.hint).toContain(want.hint);
  expect(e.docs).toBe(DOCS + want.code);
  const version = want.version ?? V1;
  expect(Object.keys(r.body.meta)).toEqual(["version", "contract", "requestId"]);
  expect(r.body.meta.version).toBe(version);
  expect(r.body.meta.contract).toBe(1);
  expect(r.body.meta.requestId).toMatch(/^req_[0-9a-f-]{36}$/);
  expect(r.headers.get("svc-version")).toBe(version);
  expect(r.headers.get("cache-control")).toBe("no-store");
  expect(r.headers.get("content-type")).toStartWith("application/json");
  expect(r.headers.get("svc-key-id")).toBe(want.keyId ?? null);
  expect(r.headers.get("svc-contract")).toBe(want.keyed ? "1" : null);
  expect(r.headers.get("vary")).toBe(want.vary ?? (want.keyed ? KEYED_VARY : null));
}

/** The secret is in neither the body nor any header of an answer. */
export function expectNoSecret(r: Answer, secret: string): void {
  expect(r.text.includes(secret)).toBe(false);
  r.headers.forEach((v, k) => {
    expect(`${k}: ${v}`.includes(secret)).toBe(false);
  });
}

/** Adds a member with a role (creating the account) and signs them in; requests need `x-svc-project`. */
/**
 * Adds a member the way people join (decisions.md section 2): an invitation, accepted by the
 * person: a new account with a password of their own, or an existing account (whose password
 * this is) signed in first. Answers the acceptance (201 with a session for a new account, or a
 * 201-status session of the signed-in account), or the invitation's refusal.
 */
export async function addMember(h: Harness, inviterToken: string, projectId: string, email: string, role: string, password = "member-password-1") {
  const invited = await h.json("POST", `/v2/projects/${projectId}/members`, { token: inviterToken, body: { email, role } });
  if (invited.status !== 201) return invited;
  const token = invited.body.invitation.token;
  const asNew = await h.json("POST", "/v2/invitations/accept", { body: { token, password } });
  if (!(asNew.status === 400 && asNew.body.field === "password")) return asNew;
  // The e-mail has an account already: it signs in and accepts as itself.
  const login = await h.json("POST", "/v2/user/login", { body: { email, password } });
  if (login.status !== 200) return login;
  const accepted = await h.json("POST", "/v2/invitations/accept", { token: login.body.accessToken, body: { token } });
  return accepted.status === 200 ? { ...login, status: 201 } : accepted;
}

export async function memberToken(h: Harness, ownerToken: string, projectId: string, email: string, role: string): Promise<string> {
  const password = "member-password-1";
  const add = await addMember(h, ownerToken, projectId, email, role, password);
  expect(add.status).toBe(201);
  const login = await h.json("POST", "/v2/user/login", { body: { email, password } });
  expect(login.status).toBe(200);
  return login.body.accessToken as string;
}

/** Creates a model over /v2 and returns it. */
export async function createModel(h: Harness, token: string, namespace: string): Promise<{ id: string; namespace: string }> {
  const r = await h.json("POST", "/v2/models", { token, body: { name: namespace, namespace, fields: [{ namespace: "title", type: "string" }] } });
  expect(r.status).toBe(201);
  return r.body;
}
