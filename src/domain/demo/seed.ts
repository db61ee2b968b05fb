// The demo project's content: models that use every field kind, with relations between them,
// and a few dozen entries in every status, so a first start has something real to read. It has
// a second locale, German (falling back to English), with a few translated posts and the
// categories' names (decisions.md 13): `?locale=de` shows the translations and falls back for
// the rest. Everything goes through the same domain functions the management routes call.
import type { Services } from "../../services.ts";
import type { ProjectHandle } from "../../storage/pool.ts";
import { createModel } from "../models/service.ts";
import { createEntry, updateEntry } from "../entries/service.ts";
import { publishEntry } from "../entries/publish.ts";
import { demoImageMaker } from "./images.ts";
import { putLocales } from "../locales/service.ts";
import { entryLocaleOf } from "../locales/entry-locale.ts";

/** What the seed created, for the first-start summary. */
export interface DemoCounts {
  models: number;
  entries: number;
  published: number;
  drafts: number;
  changed: number;
}

const AUTHOR = {
  name: "Author",
  namespace: "author",
  description: "People who write posts.",
  fields: [
    { namespace: "name", label: "Name", type: "string", required: true },
    { namespace: "email", label: "E-mail", type: "string" },
    { namespace: "bio", label: "Biography", type: "markdown" },
    { namespace: "avatar", label: "Avatar", type: "image" },
    { namespace: "links", label: "Links", type: "array", arrayType: "string" },
  ],
};

const CATEGORY = {
  name: "Category",
  namespace: "category",
  description: "Sections of the blog.",
  fields: [
    { namespace: "name", label: "Name", type: "string", required: true, localized: true },
    { namespace: "slug", label: "Slug", type: "string", required: true },
    { namespace: "color", label: "Colour", type: "color" },
    { namespace: "description", label: "Description", type: "markdown", localized: true },
  ],
};

/** Posts use every field kind and relate to authors, categories and other posts. */
const POST = {
  name: "Post",
  namespace: "post",
  description: "Blog posts.",
  fields: [
    { namespace: "title", label: "Title", type: "string", required: true, localized: true },
    { namespace: "slug", label: "Slug", type: "string", required: true },
    { namespace: "excerpt", label: "Excerpt", type: "string", localized: true },
    { namespace: "body", label: "Body", type: "markdown", localized: true },
    { namespace: "bodyHtml", label: "Body (HTML)", type: "html" },
    { namespace: "snippet", label: "Code sample", type: "code" },
    { namespace: "kind", label: "Kind", type: "enum", options: { values: ["article", "tutorial", "news"] } },
    { namespace: "accent", label: "Accent colour", type: "color" },
    { namespace: "readingMinutes", label: "Reading time (minutes)", type: "number" },
    { namespace: "featured", label: "Featured", type: "true_false" },
    { namespace: "publishDate", label: "Publish date", type: "date" },
    { namespace: "author", label: "Author", type: "relation", relation: "author" },
    { namespace: "categories", label: "Categories", type: "array", arrayType: "relation", relation: "category" },
    { namespace: "related", label: "Related posts", type: "array", arrayType: "relation", relation: "post" },
    { namespace: "keywords", label: "Keywords", type: "array", arrayType: "string" },
    { namespace: "scores", label: "Reader scores", type: "array", arrayType: "number" },
    { namespace: "milestones", label: "Milestones", type: "array", arrayType: "date" },
    { namespace: "gallery", label: "Gallery", type: "array", arrayType: "image" },
    { namespace: "cover", label: "Cover image", type: "image" },
    { namespace: "clip", label: "Video", type: "video" },
    { namespace: "attachment", label: "Attachment", type: "file" },
    { namespace: "extra", label: "Extra data", type: "mixed" },
  ],
};

const SETTINGS = {
  name: "Settings",
  namespace: "settings",
  description: "Site-wide settings (one entry).",
  singleEntry: true,
  fields: [
    { namespace: "siteName", label: "Site name", type: "string", required: true },
    { namespace: "tagline", label: "Tagline", type: "string" },
    { namespace: "theme", label: "Theme", type: "enum", options: { values: ["light", "dark", "auto"] } },
    { namespace: "primaryColor", label: "Primary colour", type: "color" },
    { namespace: "postsPerPage", label: "Posts per page", type: "number" },
    { namespace: "maintenance", label: "Maintenance mode", type: "true_false" },
    { namespace: "launchDate", label: "Launch date", type: "date" },
    { namespace: "logo", label: "Logo", type: "image" },
    { namespace: "footerHtml", label: "Footer", type: "html" },
    { namespace: "analytics", label: "Analytics snippet", type: "code" },
    { namespace: "navigation", label: "Navigation", type: "array", arrayType: "mixed" },
  ],
};

const AUTHORS = [
  ["Ada Brenner", "ada@capa.local"],
  ["Tomás Ortega", "tomas@capa.local"],
  ["Mei Lin", "mei@capa.local"],
  ["Jonas Vik", "jonas@capa.local"],
] as const;

const CATEGORIES = [
  ["Engineering", "engineering", "#2563eb"],
  ["Design", "design", "#db2777"],
  ["Product", "product", "#16a34a"],
  ["Company", "company", "#ea580c"],
  ["Guides", "guides", "#7c3aed"],
  ["Archive", "archive", "#6b7280"],
] as const;

const TOPICS = [
  "Modelling content",
  "Keyset pagination",
  "Draft and publish",
  "Relations that scale",
  "Caching at the edge",
  "Webhooks you can trust",
  "Scheduling in time zones",
  "Typed GraphQL",
  "API keys and scopes",
  "Media fields",
  "Migrating field types",
  "Previewing drafts",
];
const FORMS = ["A first look at", "Notes on"];

/** German names of the categories and of a few posts (by topic, first form), for the second locale. */
const CATEGORIES_DE: Record<string, string> = {
  engineering: "Technik",
  design: "Gestaltung",
  product: "Produkt",
  company: "Unternehmen",
  guides: "Anleitungen",
};
const TOPICS_DE: Record<string, string> = {
  "Draft and publish": "Entwurf und Veröffentlichung",
  "Webhooks you can trust": "Webhooks, denen man vertrauen kann",
  "API keys and scopes": "API-Schlüssel und Berechtigungen",
};
const KINDS = ["article", "tutorial", "news"];
const ACCENTS = ["#0ea5e9", "#f59e0b", "#10b981", "#ef4444"];

/** A picture URL of an image host, for a data directory whose media store is not local. */
function hostedImage(seed: string, alt: string) {
  return { id: `demo-${seed}`, url: `https://picsum.photos/seed/capa-${seed}/1200/800`, alt, type: "image", width: 1200, height: 800 };
}

function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function day(i: number): string {
  return `2026-${String(1 + (i % 9)).padStart(2, "0")}-${String(1 + ((i * 7) % 28)).padStart(2, "0")}`;
}

/** Creates the demo models and entries in an empty project. `actor` is recorded on every version. */
export function seedDemo(s: Services, h: ProjectHandle, actor: string): DemoCounts {
  const counts: DemoCounts = { models: 0, entries: 0, published: 0, drafts: 0, changed: 0 };
  // Pictures made here and kept in the media library (issue 12 item 8); hosted URLs only without a local store.
  const image = demoImageMaker(s, h, actor) ?? hostedImage;
  putLocales(
    s,
    h,
    {
      default: "en",
      locales: [
        { code: "en", name: "English" },
        { code: "de", name: "Deutsch", fallback: ["en"] },
      ],
    },
    false,
    actor,
  );
  for (const m of [AUTHOR, CATEGORY, POST, SETTINGS]) {
    createModel(s, h, m);
    counts.models++;
  }
  const de = entryLocaleOf(h, "de");
  // A translation saved as the German draft; published in German when `live` (the English copy is untouched).
  const translate = (id: string, data: Record<string, unknown>, live: boolean) => {
    updateEntry(s, h, actor, id, { data }, null, { locale: de });
    if (live) publishEntry(s, h, actor, id, undefined, { locales: ["de"] });
  };
  const create = (model: string, data: Record<string, unknown>, tags: string[] = []) => {
    counts.entries++;
    return createEntry(s, h, actor, { model, data, tags }).id;
  };
  const publish = (id: string) => {
    publishEntry(s, h, actor, id);
    counts.published++;
  };

  const authors = AUTHORS.map(([name, email], i) => {
    const id = create("author", {
      name,
      email,
      bio: `**${name}** writes about content systems.\n\nBased in city number ${i + 1}.`,
      avatar: image(`author-${i}`, name),
      links: [`https://example.com/${slugOf(name)}`],
    });
    publish(id);
    return id;
  });

  // The last category stays a draft, so a production key sees one fewer than a development key.
  const categories = CATEGORIES.map(([name, slug, color], i) => {
    const id = create("category", { name, slug, color, description: `Posts about ${name.toLowerCase()}.` });
    if (i < CATEGORIES.length - 1) publish(id);
    else counts.drafts++;
    const german = CATEGORIES_DE[slug];
    if (german) translate(id, { name: german, description: `Beiträge zum Thema ${german}.` }, true);
    return id;
  });

  // Posts cycle through the three statuses: draft, changed (published, then edited), published.
  const posts: string[] = [];
  FORMS.forEach((form, f) => {
    TOPICS.forEach((topic, t) => {
      const i = f * TOPICS.length + t;
      const title = `${form} ${topic.toLowerCase()}`;
      const data: Record<string, unknown> = {
        title,
        slug: slugOf(title),
        excerpt: `${topic}: what Capa does and why.`,
        body: `# ${title}\n\n${topic} in a few paragraphs.\n\n- one point\n- another point\n`,
        bodyHtml: `<h1>${title}</h1><p>${topic} in a few paragraphs.</p>`,
        snippet: `const res = await fetch("/api/entries/post?limit=${5 + (i % 10)}");`,
        kind: KINDS[i % KINDS.length],
        accent: ACCENTS[i % ACCENTS.length],
        readingMinutes: 3 + (i % 12),
        featured: i % 5 === 0,
        publishDate: day(i),
        author: authors[i % authors.length],
        categories: [categories[i % 5]!, ...(i % 3 === 0 ? [categories[(i + 1) % 5]!] : [])],
        related: posts.slice(-2),
        keywords: topic.toLowerCase().split(" "),
        scores: [4, 5, 3 + (i % 3)],
        milestones: [day(i), `2026-10-${String(1 + (i % 28)).padStart(2, "0")}T09:00:00Z`],
        gallery: i % 4 === 0 ? [image(`post-${i}-a`, `${title}, first`), image(`post-${i}-b`, `${title}, second`)] : [],
        cover: image(`post-${i}`, title),
        clip:
          i % 6 === 0 ? { id: `demo-clip-${i}`, url: `https://example.com/media/clip-${i}.mp4`, alt: title, type: "video", width: 1920, height: 1080 } : null,
        attachment: i % 8 === 0 ? { id: `demo-file-${i}`, url: `https://example.com/media/notes-${i}.pdf`, alt: `${title} (PDF)`, type: "pdf" } : null,
        extra: { series: form, position: t + 1, sources: [`https://example.com/sources/${i}`] },
      };
      const id = create("post", data, i % 2 === 0 ? ["demo", KINDS[i % KINDS.length]!] : ["demo"]);
      posts.push(id);
      const status = i % 3;
      if (status === 0) {
        counts.drafts++;
      } else {
        publish(id);
        if (status === 1) {
          updateEntry(s, h, actor, id, { data: { title: `${title} (revised)`, readingMinutes: 4 + (i % 12) } });
          counts.published--;
          counts.changed++;
        }
      }
      // A few published posts read in German; the last one's translation is still a draft.
      const german = f === 0 ? TOPICS_DE[topic] : undefined;
      if (german) {
        translate(
          id,
          { title: `Ein erster Blick auf ${german}`, excerpt: `${german}: was Capa tut und warum.`, body: `# ${german}\n\n${german} in wenigen Absätzen.\n` },
          topic !== "API keys and scopes",
        );
      }
    });
  });

  const settings = create("settings", {
    siteName: "Capa Demo",
    tagline: "A headless CMS on one SQLite file per project",
    theme: "auto",
    primaryColor: "#2563eb",
    postsPerPage: 10,
    maintenance: false,
    launchDate: "2026-10-01",
    logo: image("logo", "Capa Demo logo"),
    footerHtml: '<p>Made with <a href="https://example.com/capa">Capa</a>.</p>',
    analytics: "<script>/* your analytics here */</script>",
    navigation: [
      { label: "Blog", href: "/blog" },
      { label: "Guides", href: "/categories/guides" },
      { label: "About", href: "/about" },
    ],
  });
  publish(settings);
  return counts;
}
