// The preview pane's frame page (src/http/admin-preview.ts): its CSP names exactly the origin of
// the preview URL of the model of the entry a preview token covers, per request; any other
// address, an unknown or expired token, or a model without a preview URL gets a sentence and a
// CSP that frames nothing. The admin page's own CSP frames only this origin.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startApp, withOwner, type Harness } from "../harness.ts";
import { adminCsp } from "../../src/http/admin.ts";
import { previewFrameCsp } from "../../src/http/admin-preview.ts";

let h: Harness;
let project: string;
let token: string;
let entry: string;
let previewToken: string;

beforeAll(async () => {
  h = startApp();
  const o = await withOwner(h);
  project = o.project.id;
  token = o.token;
  const as = { token, headers: { "x-svc-project": project } };
  await h.json("POST", "/v2/models", { ...as, body: { name: "Page", namespace: "page", fields: [{ namespace: "slug", type: "string" }] } });
  await h.json("PATCH", "/v2/models/page", { ...as, body: { previewUrl: "https://site.example:8443/p/{slug}?preview={token}" } });
  entry = (await h.json("POST", "/v2/model-instances", { ...as, body: { model: "page", data: { slug: "about" } } })).body.id;
  previewToken = (await h.json("POST", "/v2/preview-tokens", { ...as, body: { entryIds: [entry] } })).body.token;
});
afterAll(() => h.close());

const frame = (q: Record<string, string>) => h.req("GET", `/admin/preview-frame?${new URLSearchParams(q)}`);
const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)![1]!;

describe("GET /admin/preview-frame", () => {
  test("frames the preview URL, with the model's preview origin alone in frame-src", async () => {
    const url = `https://site.example:8443/p/about?preview=${previewToken}`;
    const res = await frame({ project, token: previewToken, url });
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toBe(previewFrameCsp("https://site.example:8443", nonceOf(csp)));
    expect(csp).toBe(
      `default-src 'none'; frame-src https://site.example:8443; style-src 'nonce-${nonceOf(csp)}'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'`,
    );
    expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    const html = await res.text();
    expect(html).toContain(`<iframe src="https://site.example:8443/p/about?preview=${previewToken}" title="Preview of the entry"></iframe>`);
    expect(html).not.toContain("<script");
  });

  test("another origin, a made-up token, another project, or no preview URL: a sentence and nothing framed", async () => {
    const cases: [Record<string, string>, number, string][] = [
      [{ project, token: previewToken, url: "https://evil.example/p/about" }, 400, "This address is not on the model's preview site."],
      [{ project, token: "pvw_madeup", url: "https://site.example:8443/p/about" }, 404, "This preview has expired"],
      [{ project: "00000000-0000-4000-8000-000000000000", token: previewToken, url: "https://site.example:8443/" }, 404, "This preview has expired"],
    ];
    for (const [q, status, words] of cases) {
      const res = await frame(q);
      expect([q.url, res.status]).toEqual([q.url, status]);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toContain("frame-src 'none'");
      expect(await res.text()).toContain(words);
    }
    await h.json("PATCH", "/v2/models/page", { token, headers: { "x-svc-project": project }, body: { previewUrl: null } });
    const res = await frame({ project, token: previewToken, url: "https://site.example:8443/p/about" });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("This model has no preview URL.");
  });

  test("the admin page frames only its own origin (the frame page)", () => {
    expect(adminCsp()).toContain("frame-src 'self'");
    expect(adminCsp()).toContain("frame-ancestors 'none'");
  });
});
