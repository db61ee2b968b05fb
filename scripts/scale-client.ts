// The HTTP client of the replication scripts (replication-scale.ts, replication-churn.ts): signs
// the owner in and makes JSON calls with the owner's token, in a project when one is named.

/** Signs in and returns a caller; any answer of 300 or more throws with its status and body. */
export async function signIn(origin: string, owner: { email: string; password: string }) {
  const login = await fetch(`${origin}/v2/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(owner) });
  const token = ((await login.json()) as { accessToken: string }).accessToken;
  return async function call(method: string, path: string, body?: unknown, project?: string) {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    if (project) headers["x-svc-project"] = project;
    const r = await fetch(origin + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };
}
