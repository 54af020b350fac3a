import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useLoaderData, useNavigation, useSearchParams, useSubmit } from '@remix-run/react';
import { useEffect, useRef } from 'react';

import { getViewer } from '~/auth/auth.server';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { Search } from '~/components/site/icons';
import { MusicFilterLinks, musicFilterOf } from '~/components/site/music-filter';
import { Pagination } from '~/components/site/pagination';
import { EmptyState, PageHeader } from '~/components/site/section-heading';
import { buttonClass } from '~/components/ui/button';
import { inputClass } from '~/components/ui/field';
import { imageInfos } from '~/files/image-derivatives.server';
import { findTrackPageFor } from '~/models/track-lists.server';
import { trackIdFromSearch, useMusicQueue } from '~/player/music-queue';
import { TRACK_GRID_CLASS, TRACK_GRID_SIZES, TrackCard } from '~/player/track-card';
import { MIX_TYPES } from '~/types/constants';
import { cn } from '~/utils/cn';
import { pageParam } from '~/utils/page-href';
import { musicRecordingLd, seoMeta, seoSite } from '~/utils/seo/seo';
import { normalizeTrackQuery } from '~/utils/track-search';

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = seoSite(matches);
  // oEmbed discovery (decision 038): /music embeds as the list of featured tracks.
  const oembed = new URLSearchParams({ url: `${site.origin}/music`, format: 'json' });
  return [
    ...seoMeta({
      ...site,
      title: 'Music',
      description: `Listen to every ${site.siteName} track: singles, EPs, remixes and live recordings.`,
      url: location.pathname,
      image: data?.tracks[0]?.coverImage,
      type: 'music.playlist',
      // The tracks this page shows, not the catalogue.
      jsonLd: (data?.tracks ?? []).map((t) => musicRecordingLd(t, site)),
      paging: data
        ? { params: listParams(data), page: data.page, pageCount: data.pageCount }
        : undefined,
    }),
    {
      tagName: 'link',
      rel: 'alternate',
      type: 'application/json+oembed',
      href: `${site.origin}/oembed?${oembed.toString()}`,
      title: `Music — ${site.siteName}`,
    },
  ];
};

const SEARCH_DEBOUNCE_MS = 300;
const MAX_QUERY = 100;

/** The list's parameters besides its page, in the order of its URLs. */
const listParams = ({ q, filter }: { q: string; filter: string }) => ({
  q,
  type: filter === 'mixes' ? filter : null,
});

export async function loader({ request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  const q = normalizeTrackQuery(search.get('q')).slice(0, MAX_QUERY);
  const filter = musicFilterOf(search);
  // One page of the grid (issue 37): the search and the filter run in the query over the whole
  // catalogue. Members-only tracks are listed for everyone; a visitor without an account gets
  // them locked. The play queue is every track (SPEC) without carrying them: the page sends
  // the queue's size and where its own tracks stand in it, the player fetches the rest.
  const viewer = await getViewer(request);
  const found = await findTrackPageFor(viewer, {
    q,
    types: filter === 'mixes' ? MIX_TYPES : undefined,
    page: pageParam(search),
  });
  return {
    q,
    filter,
    tracks: found.items,
    page: found.page,
    pageCount: found.pageCount,
    /** Tracks matching the search and filter (every page). */
    total: found.total,
    /** Every track: the size of the play queue. */
    queueSize: found.queueSize,
    /** Index of `tracks[0]` in the queue (all tracks, newest first); null when narrowed. */
    queueOffset: found.queueOffset,
    // Sizes and responsive derivatives of the covers in the grid.
    infos: await imageInfos(found.items.map((t) => t.coverImage)),
  };
}

export default function MusicPage() {
  const data = useLoaderData<typeof loader>();
  const { q, filter, tracks, queueSize, queueOffset, infos } = data;
  const [searchParams] = useSearchParams();
  const submit = useSubmit();
  const navigation = useNavigation();
  const inputRef = useRef<HTMLInputElement>(null);
  const timer = useRef<number | undefined>(undefined);

  useMusicQueue({ tracks, queueSize, queueOffset }, trackIdFromSearch(searchParams));

  /** The live search: the form is submitted once the visitor pauses typing. */
  const searchSoon = (form: HTMLFormElement) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      submit(form, { replace: true, preventScrollReset: true });
    }, SEARCH_DEBOUNCE_MS);
  };

  // Keep the box in step with the URL (back/forward), unless the visitor is typing in it.
  // On the first run (hydration), text typed while the page was loading (pages hydrate after
  // `load`, decision 012) is searched for, as typing it later would have been.
  const hydrated = useRef(false);
  useEffect(() => {
    const input = inputRef.current;
    if (!hydrated.current) {
      hydrated.current = true;
      if (input?.form && input.value !== q) searchSoon(input.form);
      return;
    }
    if (input && document.activeElement !== input) input.value = q;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the URL's query changes
  }, [q]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const searching = navigation.state === 'loading' && navigation.location.pathname === '/music';

  return (
    <>
      <PageHeader
        title="Music"
        intro="Every release from the collective. Press play and keep browsing: the music follows you around the site."
      >
        <Form
          method="get"
          role="search"
          className="mt-8 flex max-w-xl gap-2"
          // An explicit search (Enter or the button) replaces the pending live one.
          onSubmit={() => window.clearTimeout(timer.current)}
          onChange={(event) => searchSoon(event.currentTarget)}
        >
          <label htmlFor="track-search" className="sr-only">
            Search tracks
          </label>
          <div className="relative flex-1">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground"
            />
            <input
              ref={inputRef}
              id="track-search"
              type="search"
              name="q"
              defaultValue={q}
              maxLength={MAX_QUERY}
              placeholder="Search tracks..."
              autoComplete="off"
              className={cn(inputClass, 'h-11 pl-9')}
            />
          </div>
          {/* A search keeps the chosen filter. */}
          {filter === 'mixes' ? <input type="hidden" name="type" value="mixes" /> : null}
          <button type="submit" className={buttonClass('primary', 'md', 'h-11')}>
            Search
          </button>
        </Form>
        <MusicFilterLinks filter={filter} q={q} />
        <p className="mt-4 text-sm">
          <a href="/podcast.xml" className="font-medium underline underline-offset-4">
            Podcast feed
          </a>{' '}
          <span className="text-muted-foreground">
            (mixes, live sets and radio shows in your podcast app)
          </span>
        </p>
      </PageHeader>

      <section aria-label="Tracks" aria-busy={searching || undefined} className="container py-12">
        {/* The cards' titles are h3s: a (visually hidden) h2 keeps the heading order. */}
        <h2 className="sr-only">Tracks</h2>
        <p className="sr-only" role="status">
          {q ? `${data.total} ${data.total === 1 ? 'track' : 'tracks'} found for ${q}` : ''}
        </p>
        {tracks.length === 0 ? (
          <EmptyState
            title="No tracks found"
            text={
              q
                ? `No tracks match "${q}". Try another title, artist or album.`
                : filter === 'mixes'
                  ? 'There are no mixes yet. Check back soon for new sets.'
                  : 'There are no tracks available yet. Check back soon for new music.'
            }
          />
        ) : (
          <ul className={cn(TRACK_GRID_CLASS, searching && 'opacity-60 transition-opacity')}>
            {tracks.map((track, index) => (
              <li
                key={track.id}
                data-testid="track-card"
                // Cards after the first wait to be rendered until they near the viewport.
                className={cn(
                  index > 0 &&
                    'render-when-visible [--placeholder-height:560px] sm:[--placeholder-height:500px]',
                )}
              >
                <TrackCard
                  track={track}
                  image={infos[track.coverImage]}
                  sizes={TRACK_GRID_SIZES}
                  // The first cover is the page's largest contentful paint.
                  priority={index === 0}
                  className="h-full"
                />
              </li>
            ))}
          </ul>
        )}
        <Pagination
          path="/music"
          params={listParams(data)}
          page={data.page}
          pageCount={data.pageCount}
        />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
