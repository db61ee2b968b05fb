// What the media library's browser tests share: small distinct pictures, a watch on the page's
// network and console (answers that are not 2xx, console errors, uploads in flight), and a wait
// for every thumbnail of a grid to have arrived.
import type { Locator, Page } from "playwright-core";
import sharp from "sharp";

/** A file as GET /v2/media?thumbnails=true lists it (the fields the tests read). */
export interface Listed {
  id: string;
  filename: string;
  kind: string;
  url: string;
  folder: string | null;
  width: number | null;
  height: number | null;
  checksum: string;
  placeholder: string | null;
  thumbnail?: { url: string; srcset: string } | null;
}

/** A PNG of one colour, `w` x `h`. */
export async function colourPng(w: number, h: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width: w, height: h, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** Counts what a page asks and hears from the moment it is made. */
export class NetworkWatch {
  /** Every URL asked, as path and query. */
  requests: string[] = [];
  /** `<status> <method> <path>` of every answer that is not 2xx. */
  refused: string[] = [];
  consoleErrors: string[] = [];
  /** Uploads (POST /v2/media) sent, and the most that were in flight at once. */
  uploads = 0;
  maxUploadsInFlight = 0;
  private inFlight = 0;

  constructor(page: Page) {
    const isUpload = (r: { method(): string; url(): string }) => r.method() === "POST" && new URL(r.url()).pathname === "/v2/media";
    page.on("request", (r) => {
      const u = new URL(r.url());
      this.requests.push(u.pathname + u.search);
      if (isUpload(r)) {
        this.uploads++;
        this.inFlight++;
        this.maxUploadsInFlight = Math.max(this.maxUploadsInFlight, this.inFlight);
      }
    });
    // An upload is over for the app once its answer's headers are in (the app then sends the next,
    // before the browser reports the body finished), or once it failed.
    page.on("requestfailed", (r) => {
      if (isUpload(r)) this.inFlight--;
    });
    page.on("response", (r) => {
      if (isUpload(r.request())) this.inFlight--;
      if (r.status() < 200 || r.status() >= 300) {
        const u = new URL(r.url());
        this.refused.push(`${r.status()} ${r.request().method()} ${u.pathname}${u.search}`);
      }
    });
    page.on("console", (m) => {
      if (m.type() === "error") this.consoleErrors.push(m.text());
    });
    page.on("pageerror", (e) => this.consoleErrors.push(e.message));
  }

  reset(): void {
    this.requests = [];
    this.refused = [];
    this.consoleErrors = [];
    this.uploads = 0;
    this.maxUploadsInFlight = 0;
  }
}

/** Waits until every picture inside `within` has arrived and decoded (none broken). */
export async function thumbsDone(within: Locator, timeout = 30_000): Promise<void> {
  await within.evaluate(
    (el, ms) =>
      new Promise<void>((resolve, reject) => {
        const end = performance.now() + ms;
        const check = () => {
          const imgs = [...el.getElementsByTagName("img")];
          if (imgs.every((i) => i.complete && i.naturalWidth > 0)) return resolve();
          if (performance.now() > end)
            return reject(new Error(`${imgs.filter((i) => !(i.complete && i.naturalWidth > 0)).length} of ${imgs.length} pictures never arrived`));
          setTimeout(check, 20);
        };
        check();
      }),
    timeout,
  );
}
