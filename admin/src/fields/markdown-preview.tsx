// The rendered form of a markdown value, loaded on first use: marked turns it into HTML and
// DOMPurify removes anything active from it before it is shown (the CSP would stop script
// anyway; this also keeps out forms, frames and styles).
import DOMPurify from "dompurify";
import { marked } from "marked";

/** Markdown rendered to sanitised HTML, in a region named after the field. */
export default function MarkdownPreview({ source, label }: { source: string; label: string }) {
  const html = DOMPurify.sanitize(marked.parse(source, { async: false }), {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form"],
    FORBID_ATTR: ["style"],
  });
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify just above.
  return <section className="markdown-preview" aria-label={`Preview of ${label}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
