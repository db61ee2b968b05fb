// Read a list and one entry with a production key: from a server, or from a page on any origin
// (Capa answers CORS on /api). On an error, the /api envelope says why in `error.code`.
export async function readPosts(api: string, key: string, after?: string) {
  const params = new URLSearchParams({ limit: "10", sort: "-publishedAt", select: "title,slug" });
  if (after) params.set("after", after);
  const res = await fetch(`${api}/api/entries/post?${params}`, { headers: { "x-api-key": key } });
  if (!res.ok) {
    const { error } = await res.json();
    throw new Error(`${res.status} ${error.code}: ${error.message}`);
  }
  const { data, meta } = await res.json();
  return { posts: data as { id: string; title: string; slug: string }[], next: meta.page.next as string | null };
}

export async function readPost(api: string, key: string, id: string) {
  const res = await fetch(`${api}/api/entries/post/${id}`, { headers: { "x-api-key": key } });
  if (res.status === 404) return null;
  return (await res.json()).data as { id: string; title: string; slug: string };
}
