/**
 * What the server knows about an uploaded image (see `imageInfo` in
 * app/files/image-derivatives.server.ts): its intrinsic size and the widths of the derivatives
 * written beside it as `<base>-<width>w.<ext>` (original format) and `<base>-<width>w.webp`.
 */
export type ImageInfo = {
  src: string;
  width: number;
  height: number;
  /** Derivatives in the original format, ascending, all narrower than `width`. */
  widths: number[];
  /** WebP derivatives, ascending. */
  webpWidths: number[];
};
