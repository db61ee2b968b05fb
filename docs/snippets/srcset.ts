// Responsive images: one file URL, several widths, the best format the browser takes (fm=auto
// reads its Accept). Each variant is made once and then served like a file.
export function srcset(url: string, widths = [320, 640, 960, 1280]): string {
  return widths.map((w) => `${url}?w=${w}&fm=auto ${w}w`).join(", ");
}

export function img(media: { url: string; alt: string; width: number; height: number }): string {
  return `<img src="${media.url}?w=640&fm=auto" srcset="${srcset(media.url)}" sizes="(min-width: 800px) 640px, 100vw" width="${media.width}" height="${media.height}" alt="${media.alt}" loading="lazy">`;
}
