import { Link } from '@remix-run/react';

import { ArrowLeft } from '~/components/site/icons';

/**
 * The track page's layout (decision 034, issue 36): a header band that leads with the music,
 * then the tracklist and the description.
 *
 * From `md` the band is a show page's: the cover on the left (at most a quarter of the
 * width), the title and its details on the right, Play and the share links under them, and
 * the waveform across the whole right column, level with the foot of the cover. On a phone
 * the cover is a thumbnail beside the title; Play, the share links and the waveform take
 * the full width under them. At 1280×800 everything in the band is above the fold.
 */
export function TrackPageLayout({
  cover,
  details,
  actions,
  waveform,
  tracklist,
  description,
}: {
  /** The cover image, sized by its own `sizes` to `TRACK_COVER_SIZES`. */
  cover: React.ReactNode;
  /** Type, title (the page's h1), artist, length. */
  details: React.ReactNode;
  /** Play (or what stands in its place) and the share links. */
  actions: React.ReactNode;
  waveform?: React.ReactNode;
  tracklist?: React.ReactNode;
  description?: React.ReactNode;
}) {
  return (
    <>
      <div className="border-b border-border bg-gradient-to-b from-primary/15 via-primary/5 to-transparent pb-8 pt-24 md:pb-10">
        <div className="container">
          <Link
            to="/music"
            className="inline-flex min-h-9 items-center gap-2 text-sm font-semibold text-muted-foreground hover:text-primary"
          >
            <ArrowLeft aria-hidden="true" className="h-4 w-4" />
            All music
          </Link>
          <div
            className={
              'mt-4 grid grid-cols-[6rem_minmax(0,1fr)] gap-x-4 gap-y-5 [grid-template-areas:"cover_details"_"actions_actions"_"waveform_waveform"] ' +
              'sm:grid-cols-[9rem_minmax(0,1fr)] sm:gap-x-6 ' +
              'md:grid-cols-[13rem_minmax(0,1fr)] md:grid-rows-[auto_auto_1fr] md:gap-x-8 md:[grid-template-areas:"cover_details"_"cover_actions"_"cover_waveform"] ' +
              'lg:grid-cols-[16rem_minmax(0,1fr)] xl:grid-cols-[20rem_minmax(0,1fr)]'
            }
          >
            <div className="self-start [grid-area:cover]">{cover}</div>
            <header className="min-w-0 space-y-1 self-center [grid-area:details] md:self-start">
              {details}
            </header>
            <div className="min-w-0 [grid-area:actions]">{actions}</div>
            {waveform ? (
              <div className="min-w-0 self-end [grid-area:waveform]">{waveform}</div>
            ) : null}
          </div>
        </div>
      </div>
      {tracklist || description ? (
        <div
          className={
            tracklist && description
              ? 'container grid gap-10 py-10 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]'
              : 'container py-10 [&>*]:max-w-4xl'
          }
        >
          {tracklist ? <div className="min-w-0">{tracklist}</div> : null}
          {description ? (
            <section aria-labelledby="about-heading" className="min-w-0">
              <h2 id="about-heading" className="mb-3 text-xl font-semibold">
                About
              </h2>
              <div className="max-w-prose space-y-3">{description}</div>
            </section>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

/** The cover's rendered width in `TrackPageLayout`, for its `sizes`. */
export const TRACK_COVER_SIZES =
  '(min-width: 1280px) 320px, (min-width: 1024px) 256px, (min-width: 768px) 208px, (min-width: 640px) 144px, 96px';
