import type { ImageInfo } from '~/types/image-info';
import { derivativeUrl } from '~/utils/image-url';

export function buildSrcSets(image: Pick<ImageInfo, 'src' | 'width' | 'widths' | 'webpWidths'>): {
  srcSet?: string;
  webpSrcSet?: string;
} {
  const isWebp = /\.webp(?:[?#]|$)/i.test(image.src);
  const own = image.widths.filter((w) => w < image.width);
  const srcSet =
    own.length > 0
      ? [
          ...own.map((w) => `${derivativeUrl(image.src, w)} ${w}w`),
          `${image.src} ${image.width}w`,
        ].join(', ')
      : undefined;
  const webpSrcSet =
    !isWebp && image.webpWidths.length > 0
      ? image.webpWidths.map((w) => `${derivativeUrl(image.src, w, '.webp')} ${w}w`).join(', ')
      : undefined;
  return { srcSet, webpSrcSet };
}

export type ResponsiveImageProps = {
  src: string;
  alt: string;
  /** Intrinsic size (sets the aspect ratio: no layout shift). */
  width?: number;
  height?: number;
  /** Known derivative widths (from `imageInfo`); none → a plain `<img>`. */
  widths?: number[];
  webpWidths?: number[];
  /** The rendered width, e.g. '(min-width: 768px) 33vw, 100vw'. */
  sizes?: string;
  /** The page's main image: eager, `fetchpriority="high"`. Otherwise lazy. */
  priority?: boolean;
  className?: string;
  /** Classes for the `<picture>` wrapper (it is `display: contents` by default). */
  pictureClassName?: string;
};

/**
 * `<picture>` with a WebP `<source srcSet>` and an `<img>` in the original format (with its own
 * `srcSet` only when there are no WebP copies). Spread
 * an `ImageInfo` into it: `<ResponsiveImage {...info} alt="" sizes="…" />`.
 */
export function ResponsiveImage({
  src,
  alt,
  width,
  height,
  widths = [],
  webpWidths = [],
  sizes = '100vw',
  priority = false,
  className,
  pictureClassName,
}: ResponsiveImageProps) {
  const { srcSet, webpSrcSet } =
    width !== undefined ? buildSrcSets({ src, width, widths, webpWidths }) : {};
  // With WebP copies (every browser since 2020 takes them), the <img> is only the fallback of
  // the <picture>: its src alone, not a second list of sizes in every card (issue 19).
  const imgSrcSet = webpSrcSet ? undefined : srcSet;
  const img = (
    <img
      src={src}
      srcSet={imgSrcSet}
      sizes={imgSrcSet ? sizes : undefined}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      decoding="async"
      // React 18 does not know the camel-cased prop; the lowercase attribute passes through.
      {...{ fetchpriority: priority ? 'high' : undefined }}
      className={className}
    />
  );
  if (!webpSrcSet) return img;
  return (
    <picture className={pictureClassName ?? 'contents'}>
      <source type="image/webp" srcSet={webpSrcSet} sizes={sizes} />
      {img}
    </picture>
  );
}
