import { useEffect, useId, useRef, useState } from 'react';

import { Eye, X } from '~/components/site/icons';
import { ResponsiveImage } from '~/components/ui/responsive-image';
import type { GalleryImageJSON } from '~/types/entities';
import type { ImageInfo } from '~/types/image-info';
import { cn } from '~/utils/cn';

type GridImage = Pick<GalleryImageJSON, 'id' | 'title' | 'description' | 'imageUrl'>;

const COLUMNS = {
  1: 'grid-cols-1',
  2: 'grid-cols-1 sm:grid-cols-2',
  3: 'grid-cols-1 sm:grid-cols-2 lg:grid-cols-3',
  4: 'grid-cols-1 sm:grid-cols-2 lg:grid-cols-4',
} as const;

/**
 * The image grid: 1 to 4 columns (default 3), a hover overlay with title, optional
 * description and a view button that opens a lightbox <dialog> (closes with its button or
 * Escape; the image is at most 80% of the viewport height). Without JavaScript the view
 * button is a plain link to the full image.
 */
export function ImageGrid({
  images,
  columns = 3,
  headingLevel = 2,
  infos,
  priorityCount = 0,
}: {
  images: GridImage[];
  columns?: 1 | 2 | 3 | 4;
  headingLevel?: 2 | 3;
  /** `imageInfos` of the images, by URL: responsive `<picture>`s (without: a plain `<img>`). */
  infos?: Record<string, ImageInfo>;
  /** How many leading images are the page's main, above-the-fold ones (eager, high priority). */
  priorityCount?: number;
}) {
  const [selected, setSelected] = useState<GridImage | null>(null);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();
  const Heading = `h${headingLevel}` as const;
  // A cell's width (`sizes`), as COLUMNS: one column, two from `sm`, `columns` from `lg`. From
  // 1280px the `.container` is 1248px inside its padding, less the 24px gaps between columns;
  // below, 100/n vw slightly overestimates (it leaves out the padding and the gaps).
  const sizes = `(min-width: 1280px) ${(1248 - 24 * (columns - 1)) / columns}px, (min-width: 1024px) ${Math.floor(100 / columns)}vw, (min-width: 640px) ${columns > 1 ? 50 : 100}vw, 100vw`;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (selected && !dialog.open) dialog.showModal();
    if (!selected && dialog.open) dialog.close();
  }, [selected]);

  const close = () => {
    setSelected(null);
    opener.current?.focus();
  };

  return (
    <>
      <ul className={cn('grid gap-6', COLUMNS[columns])} data-testid="image-grid">
        {images.map((image, index) => (
          <li key={image.id} data-testid="gallery-item">
            <figure className="group relative overflow-hidden rounded-lg border border-border bg-muted">
              <ResponsiveImage
                src={image.imageUrl}
                alt={image.description ? `${image.title}: ${image.description}` : image.title}
                width={800}
                height={600}
                {...infos?.[image.imageUrl]}
                sizes={sizes}
                priority={index < priorityCount}
                className="aspect-[4/3] w-full object-cover transition-transform duration-500 group-hover:scale-105"
              />
              <figcaption className="gallery-caption">
                <Heading className="text-lg font-bold leading-tight">{image.title}</Heading>
                {image.description ? (
                  <p className="line-clamp-2 text-sm text-white/90">{image.description}</p>
                ) : null}
                <a
                  href={image.imageUrl}
                  aria-haspopup="dialog"
                  onClick={(event) => {
                    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0)
                      return;
                    event.preventDefault();
                    opener.current = event.currentTarget;
                    setSelected(image);
                  }}
                  className="gallery-view"
                >
                  <Eye aria-hidden="true" className="h-4 w-4" />
                  View<span className="sr-only"> {image.title}</span>
                </a>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
      {/* Escape is handled natively by <dialog>; the click only adds backdrop dismissal. */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions */}
      <dialog
        ref={dialogRef}
        aria-labelledby={titleId}
        aria-describedby={selected?.description ? descriptionId : undefined}
        onClose={() => {
          if (selected) close();
        }}
        onClick={(event) => {
          // A click on the backdrop (outside the content box) dismisses.
          if (event.target === event.currentTarget) close();
        }}
        className="w-full max-w-5xl rounded-lg border border-border bg-card p-0 text-card-foreground shadow-2xl backdrop:bg-black/80"
        data-testid="lightbox"
      >
        {selected ? (
          <div className="p-4 md:p-6">
            <div className="mb-4 flex items-start justify-between gap-4">
              <div>
                <h2 id={titleId} className="text-xl font-bold">
                  {selected.title}
                </h2>
                {selected.description ? (
                  <p id={descriptionId} className="mt-1 text-muted-foreground">
                    {selected.description}
                  </p>
                ) : null}
              </div>
              <button
                type="button"
                onClick={close}
                className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-md hover:bg-muted"
              >
                <X aria-hidden="true" className="h-5 w-5" />
                <span className="sr-only">Close</span>
              </button>
            </div>
            <img
              src={selected.imageUrl}
              alt={selected.title}
              className="mx-auto max-h-[80vh] w-auto max-w-full rounded-md object-contain"
            />
          </div>
        ) : null}
      </dialog>
    </>
  );
}
