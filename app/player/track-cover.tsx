import { ResponsiveImage, type ResponsiveImageProps } from '~/components/ui/responsive-image';
import type { ImageInfo } from '~/types/image-info';
import { PLACEHOLDER_COVER } from '~/utils/image-url';

/**
 * A track's square cover, `size` px unless its stored variants (`image`, from `imageInfo`) say
 * otherwise, with those variants in its srcset; the placeholder when the track has no cover.
 * The track cards, the featured track (and the track page may use it too).
 */
export function TrackCover({
  track,
  image,
  size,
  ...props
}: {
  track: { coverImage: string; title: string };
  image?: ImageInfo | null;
  size: number;
} & Omit<ResponsiveImageProps, 'src' | 'alt' | 'width' | 'height'>) {
  return (
    <ResponsiveImage
      src={track.coverImage || PLACEHOLDER_COVER}
      alt={`Cover of ${track.title}`}
      width={size}
      height={size}
      {...image}
      {...props}
    />
  );
}
