// Reads typed end to end with openapi-fetch: paths, query parameters and answers come from the
// types written by openapi-types.ts (./capa.d.ts), so a wrong field or model fails to compile.
import createClient from "openapi-fetch";
import type { paths } from "./capa";

const client = createClient<paths>({ baseUrl: process.env.CAPA_URL, headers: { "x-api-key": process.env.CAPA_KEY ?? "" } });

const list = await client.GET("/api/entries/post", { params: { query: { sort: "title", limit: 2, select: "title,slug,author(name)" } } });
if (!list.data) throw new Error(`no list: ${JSON.stringify(list.error)}`);
const titles: (string | null | undefined)[] = list.data.data.map((p) => p.title);
const first = list.data.data[0]!;
const author = first.author;
const authorName: string | null | undefined = typeof author === "object" && author !== null ? author.name : undefined;

const one = await client.GET("/api/entries/post/{id}", { params: { path: { id: first.id } } });
if (!one.data) throw new Error(`no item: ${JSON.stringify(one.error)}`);
const slug: string | null | undefined = one.data.data.slug;
const version: string = one.data.meta.version;

console.log(JSON.stringify({ titles, authorName, id: one.data.data.id, slug, version, next: list.data.meta.page?.next ?? null }));
