import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Outlet, useLoaderData } from '@remix-run/react';

import { getViewer } from '~/auth/auth.server';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { MembersOnlyBadge, UnlockLink } from '~/components/site/members-only';
import { TRACK_COVER_SIZES, TrackPageLayout } from '~/components/site/track-page-layout';
import { ResponsiveImage } from '~/components/ui/responsive-image';
import { imageInfo } from '~/files/image-derivatives.server';
import { findByIdParam } from '~/models/model-helpers.server';
import { getTrackFor } from '~/models/track.server';
import { getTrackPeaks } from '~/models/track-peaks.server';
import { loadOr503, notFound } from '~/platform/http-errors.server';
import { siteOrigin } from '~/platform/site-origin.server';
import { Tracklist, TrackPlayback } from '~/player/track-detail';
import { audioPendingText, isMembersOnly, isPlayable } from '~/utils/access';
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
    published: track.createdAt,
    author: track.artist,
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
      isPlayable(track) ? getTrackPeaks(track.id, track.audioFile) : null,
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
  const cover = (
    <ResponsiveImage
      src={track.coverImage || PLACEHOLDER_COVER}
      alt={`Cover of ${track.title}`}
      width={400}
      height={400}
      {...image}
      sizes={TRACK_COVER_SIZES}
      priority
      pictureClassName="block"
      className="aspect-square w-full rounded-lg bg-muted object-cover shadow-lg"
    />
  );
  const details = (
    <>
      <p className="text-sm font-semibold uppercase tracking-wider text-primary">{track.type}</p>
      <h1 className="break-words text-2xl font-bold sm:text-3xl md:text-4xl">{track.title}</h1>
      <p className="text-base text-muted-foreground sm:text-lg">
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
    </>
  );
  const description = track.description
    ? paragraphsOf(track.description).map((p, i) => <p key={i}>{p}</p>)
    : null;
  const tracklist = track.tracklist.length > 0 ? <Tracklist rows={track.tracklist} /> : null;
  const pending = track.locked ? null : audioPendingText(track);

  return (
    <article className="pb-16" data-track-id={track.id}>
      {track.locked ? (
        <TrackPageLayout
          cover={cover}
          details={details}
          actions={
            <div className="space-y-4">
              <MembersOnlyBadge item={track} />
              <div>
                <UnlockLink
                  path={`/music/${track.id}`}
                  className="inline-flex min-h-12 items-center gap-2 rounded-full bg-primary px-6 py-2 text-lg font-semibold text-primary-foreground hover:bg-primary/90"
                >
                  Log in to play<span className="sr-only"> {track.title}</span>
                </UnlockLink>
              </div>
            </div>
          }
          tracklist={tracklist}
          description={description}
        />
      ) : !isPlayable(track) ? (
        <TrackPageLayout
          cover={cover}
          details={details}
          actions={
            // Its stream is still being made (decision 035): nothing to play yet.
            <p
              className="inline-flex min-h-10 items-center rounded-lg border border-border px-4 py-2 text-sm font-semibold text-muted-foreground"
              data-testid="audio-pending"
            >
              {pending}
            </p>
          }
          tracklist={tracklist}
          description={description}
        />
      ) : (
        <TrackPlayback track={track} shape={shape} startAt={startAt}>
          {(parts) => (
            <TrackPageLayout
              cover={cover}
              details={details}
              actions={
                <div className="flex flex-wrap items-start gap-x-4 gap-y-3">
                  {parts.play}
                  <div className="min-w-0 flex-1 basis-64">{parts.share}</div>
                </div>
              }
              waveform={parts.waveform}
              tracklist={parts.tracklist}
              description={description}
            />
          )}
        </TrackPlayback>
      )}
      {/* The share dialog (/music/{id}/share, a child route) opens over the page. */}
      <Outlet />
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary back={{ to: '/music', label: 'Back to Music' }} />;
}
