// The data functions of three frameworks, each calling the read API on the server, where the key
// stays out of the browser. They are plain async functions: the framework calls them.
const API = process.env.CAPA_URL ?? "http://127.0.0.1:3000";
const KEY = process.env.CAPA_KEY ?? "";

// Next.js (App Router): app/blog/[slug]/page.tsx calls this. `next.tags` lets the webhook route
// below drop exactly this page's cache when the entry changes.
export async function getPostBySlug(slug: string) {
  const where = encodeURIComponent(JSON.stringify({ slug }));
  const res = await fetch(`${API}/api/entries/post?where=${where}&limit=1`, {
    headers: { "x-api-key": KEY },
    next: { revalidate: 60, tags: ["capa:post"] },
  } as RequestInit);
  const { data } = await res.json();
  return data[0] ?? null;
}

// Astro: src/pages/blog/[slug].astro exports this, and Astro builds one page per entry.
export async function getStaticPaths() {
  const paths: { params: { slug: string }; props: { title: string } }[] = [];
  let after: string | null = null;
  do {
    const res: Response = await fetch(`${API}/api/entries/post?limit=200&select=title,slug${after ? `&after=${after}` : ""}`, {
      headers: { "x-api-key": KEY },
    });
    const { data, meta } = (await res.json()) as { data: { title: string; slug: string }[]; meta: { page: { next: string | null } } };
    for (const p of data) paths.push({ params: { slug: p.slug }, props: { title: p.title } });
    after = meta.page.next;
  } while (after);
  return paths;
}

// SvelteKit: src/routes/blog/+page.server.ts exports this as `load`.
export async function load({ fetch }: { fetch: typeof globalThis.fetch }) {
  const res = await fetch(`${API}/api/entries/post?limit=20&sort=-publishedAt&select=title,slug`, { headers: { "x-api-key": KEY } });
  return { posts: (await res.json()).data as { title: string; slug: string }[] };
}
