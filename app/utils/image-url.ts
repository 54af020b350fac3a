import type { ImageInfo } from '~/types/image-info';

/** The cover shown for a track without one (public/placeholder-album.jpg). */
export const PLACEHOLDER_COVER = '/placeholder-album.jpg';

/** `/uploads/images/a.jpg` + 640 + '.webp' → `/uploads/images/a-640w.webp` */
export function derivativeUrl(src: string, width: number, ext?: string): string {
  const [pathPart = '', query = ''] = src.split(/(?=[?#])/);
  const dot = pathPart.lastIndexOf('.');
  const slash = pathPart.lastIndexOf('/');
  if (dot <= slash) return src;
  return `${pathPart.slice(0, dot)}-${width}w${ext ?? pathPart.slice(dot)}${query}`;
}

/**
 * The smallest copy of an image there is, for a thumbnail a few dozen pixels wide: its smallest
 * WebP derivative, else its smallest derivative in the original format, else the image itself.
 */
export function smallestImageUrl(src: string, info: ImageInfo | undefined): string {
  const webp = info?.webpWidths[0];
  if (webp !== undefined) return derivativeUrl(src, webp, '.webp');
  const own = info?.widths[0];
  return own !== undefined ? derivativeUrl(src, own) : src;
}
