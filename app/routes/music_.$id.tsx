import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, Outlet, useLoaderData } from '@remix-run/react';

import { getViewer } from '~/auth/auth.server';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { ArrowLeft } from '~/components/site/icons';
import { MembersOnlyBadge, UnlockLink } from '~/components/site/members-only';
import { ResponsiveImage } from '~/components/ui/responsive-image';
import { imageInfo } from '~/files/image-derivatives.server';
import { findByIdParam } from '~/models/model-helpers.server';
import { getTrackFor } from '~/models/track.server';
import { getTrackPeaks } from '~/models/track-peaks.server';
import { loadOr503, notFound } from '~/platform/http-errors.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { Tracklist, TrackPlayback } from '~/player/track-detail';
import { audioPendingText, isMembersOnly } from '~/utils/access';
import { PLACEHOLDER_COVER } from '~/utils/image-url';
import { formatClock, parseDeepLinkTime } from '~/utils/media-time';
import { paragraphsOf } from '~/utils/paragraphs';
import { playerCardMeta } from '~/utils/seo/player-card';
import { musicRecordingLd, seoMeta, seoSite } from '~/utils/seo/seo';
import { waveformShape } from '~/utils/waveform-path';

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = { ...seoSite(matches), ...(data ? { origin: data.origin } : {}) };
  if (!data) {
    return seoMeta({
      ...site,
      title: 'Track not found',
      description: 'This track does not exist or has been removed.',
      url: location.pathname,
      noindex: true,
    });
  }
  const { track } = data;
  const tags = seoMeta({
    ...site,
    title: `${track.title} by ${track.artist}`,
    description: track.description ?? `${track.type} by ${track.artist} (${track.duration}).`,
    url: `/music/${track.id}`,
    image: track.coverImage,
    imageAlt: `Cover of ${track.title}`,
    type: 'music.song',
    jsonLd: musicRecordingLd(track, site),
  });
  return playerCardMeta(tags, {
    origin: data.origin,
    id: track.id,
    title: `${track.title} by ${track.artist}`,
    siteName: site.siteName,
    // og:audio for a public track only: never a members-only file, even on a member's page.
    audio:
      track.locked || isMembersOnly(track) || track.audioStatus !== 'ready'
        ? null
        : track.audioFile,
  });
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  return loadOr503(request, async () => {
    const viewer = await getViewer(request);
    const track = await findByIdParam(params.id, (id) => getTrackFor(viewer, id));
    if (!track) throw notFound('Track not found');
    const startAt = parseDeepLinkTime(new URL(request.url).searchParams.get('t'));
    // The waveform is drawn from the peaks of the current audio file; a locked track has none
    // here (its audio, and so its peaks, are for members).
    const [peaks, image] = await Promise.all([
      track.locked || track.audioStatus !== 'ready'
        ? null
        : getTrackPeaks(track.id, track.audioFile),
      imageInfo(track.coverImage),
    ]);
    return {
      track,
      image,
      // Only the path goes to the page, never the peaks themselves.
      shape: waveformShape(peaks),
      startAt: startAt !== null && startAt <= Math.max(track.durationSeconds, 0) ? startAt : null,
      origin: siteOrigin(),
    };
  });
}

export default function TrackPage() {
  const { track, image, shape, startAt } = useLoaderData<typeof loader>();
  return (
    <article className="container pb-16 pt-28" data-track-id={track.id}>
      <Link
        to="/music"
        className="inline-flex min-h-9 items-center gap-2 text-sm font-semibold text-muted-foreground hover:text-primary"
      >
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        All music
      </Link>
      <div className="mt-6 grid gap-8 md:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
        <ResponsiveImage
          src={track.coverImage || PLACEHOLDER_COVER}
          alt={`Cover of ${track.title}`}
          width={400}
          height={400}
          {...image}
          sizes="(min-width: 768px) 320px, 100vw"
          priority
          className="aspect-square w-full rounded-lg bg-muted object-cover"
        />
        <div className="min-w-0 space-y-4">
          <header className="space-y-2">
            <p className="text-sm font-semibold uppercase tracking-wider text-primary">
              {track.type}
            </p>
            <h1 className="text-3xl font-bold md:text-4xl">{track.title}</h1>
            <p className="text-lg text-muted-foreground">
              {track.artist}
              {track.album ? <span> · {track.album}</span> : null}
            </p>
            <p className="text-sm tabular-nums text-muted-foreground">
              <span className="sr-only">Duration </span>
              {track.duration}
            </p>
            {startAt !== null ? (
              <p className="font-medium" data-testid="starts-at">
                Starts at {formatClock(startAt)}
              </p>
            ) : null}
          </header>
          {track.description ? (
            <div className="max-w-prose space-y-3">
              {paragraphsOf(track.description).map((p, i) => (
                <p key={i}>{p}</p>
              ))}
            </div>
          ) : null}
          {track.locked ? (
            <div className="space-y-4">
              <MembersOnlyBadge item={track} />
              <div>
                <UnlockLink
                  path={`/music/${track.id}`}
                  className="inline-flex min-h-10 items-center gap-2 rounded-lg bg-primary px-4 py-2 text-sm font-semibold text-primary-foreground hover:bg-primary/90"
                >
                  Log in to play<span className="sr-only"> {track.title}</span>
                </UnlockLink>
              </div>
              {track.tracklist.length > 0 ? <Tracklist rows={track.tracklist} /> : null}
            </div>
          ) : audioPendingText(track) !== null ? (
            // Its stream is still being made (decision 035): nothing to play yet.
            <div className="space-y-4">
              <p
                className="inline-flex min-h-10 items-center rounded-lg border border-border px-4 py-2 text-sm font-semibold text-muted-foreground"
                data-testid="audio-pending"
              >
                {audioPendingText(track)}
              </p>
              {track.tracklist.length > 0 ? <Tracklist rows={track.tracklist} /> : null}
            </div>
          ) : (
            <TrackPlayback track={track} shape={shape} startAt={startAt} />
          )}
        </div>
      </div>
      {/* The share dialog (/music/{id}/share, a child route) opens over the page. */}
      <Outlet />
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary back={{ to: '/music', label: 'Back to Music' }} />;
}
