// Rebuild a static site when content changes: a small HTTPS endpoint for Capa's webhooks that
// checks the Standard Webhooks signature and calls the host's build hook (Netlify, Vercel,
// Cloudflare Pages, ...) once per event. Retries carry the same webhook-id: it is built once.
import { Webhook } from "standardwebhooks";

const seen = new Set<string>();

export async function onCapaWebhook(request: Request, secret: string, buildHook: string): Promise<Response> {
  const body = await request.text();
  const headers = Object.fromEntries(request.headers);
  let event: { type: string };
  try {
    event = new Webhook(secret).verify(body, headers) as { type: string };
  } catch {
    return new Response("bad signature", { status: 401 });
  }
  const id = headers["webhook-id"]!;
  if (!seen.has(id) && ["instance.published", "instance.unpublished", "instance.deleted"].includes(event.type)) {
    seen.add(id);
    await fetch(buildHook, { method: "POST" });
  }
  return new Response(null, { status: 204 });
}
