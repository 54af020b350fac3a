import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, Outlet, useLoaderData, useNavigation } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { CardCover, CardGrid } from '~/components/admin/card-grid';
import { AddNewLink, EditDeleteLinks } from '~/components/admin/edit-delete-links';
import { Settings, Shuffle, Star } from '~/components/admin/icons';
import { AdminPagination, AdminSearchForm } from '~/components/admin/list-paging';
import { TabLinks } from '~/components/admin/tab-links';
import { MembersOnlyBadge } from '~/components/site/members-only';
import { buttonClass, SubmitButton } from '~/components/ui/button';
import { parseId } from '~/models/model-helpers.server';
import { getTheme } from '~/models/theme.server';
import { pageTracks } from '~/models/track.server';
import { trackAudioFailuresOf } from '~/models/track-audio.server';
import { randomizeFeaturedTrack, setTrackFeatured } from '~/models/track-writes.server';
import { catchServerFailure } from '~/platform/http-errors.server';
import { readForm } from '~/platform/request-body.server';
import { playsForTracks } from '~/services/stats.server';
import { isMembersOnly } from '~/utils/access';
import { keepSearch, searchText, tracksListUrl } from '~/utils/admin-urls';
import { cn } from '~/utils/cn';
import { pageParam } from '~/utils/page-href';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Tracks');

/** Cards per page of the grid. */
const TRACKS_PER_PAGE = 24;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const search = new URL(request.url).searchParams;
  const tab = search.get('tab') === 'featured' ? 'featured' : 'all';
  const q = searchText(search);
  const [list, theme] = await Promise.all([
    pageTracks({
      q,
      featured: tab === 'featured' ? true : undefined,
      page: pageParam(search),
      perPage: TRACKS_PER_PAGE,
    }),
    getTheme(),
  ]);
  const [plays, audioFailures] = await Promise.all([
    playsForTracks(list.items, 30),
    trackAudioFailuresOf(list.items.filter((t) => t.audioStatus === 'failed').map((t) => t.id)),
  ]);
  return {
    tab,
    q,
    tracks: list.items,
    page: list.page,
    pageCount: list.pageCount,
    total: list.total,
    plays,
    audioFailures,
    weeklyRotation: theme.weeklyRotation,
    listUrl: tracksListUrl(request.url),
  };
}

/** The list's own forms: the per-card featured toggle and Randomize Featured. */
export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const to = tracksListUrl(request.url);
  const formData = await readForm(request);
  const intent = formData.get('intent');

  if (intent === 'toggle-featured') {
    const fail = (description: string) =>
      redirectWithToast(to, {
        type: 'error',
        title: 'Failed to update featured status',
        description,
      });
    const id = parseId(String(formData.get('id') ?? ''));
    const featured = formData.get('featured') === 'true';
    if (id === null) return fail('Track not found');
    return catchServerFailure(
      request,
      'updating the featured status failed',
      async () => {
        const track = await setTrackFeatured(id, featured);
        if (!track) return fail('Track not found');
        return redirectWithToast(to, {
          type: 'success',
          title: featured ? 'Track featured' : 'Track unfeatured',
          description: featured
            ? `"${track.title}" is now featured.`
            : `"${track.title}" is no longer featured.`,
        });
      },
      fail,
    );
  }

  if (intent === 'randomize') {
    const fail = (description: string) =>
      redirectWithToast(to, {
        type: 'error',
        title: 'Failed to randomize featured track',
        description,
      });
    return catchServerFailure(
      request,
      'randomizing the featured track failed',
      async () => {
        const track = await randomizeFeaturedTrack();
        if (!track) return fail('There are no tracks to choose from.');
        return redirectWithToast(to, {
          type: 'success',
          title: 'Featured track randomized',
          description: `"${track.title}" is now the featured track.`,
        });
      },
      fail,
    );
  }

  return redirectWithToast(to, {
    type: 'error',
    title: 'Unknown action',
    description: 'Nothing was changed.',
  });
}

export default function AdminTracks() {
  const { tab, q, tracks, page, pageCount, total, plays, audioFailures, weeklyRotation, listUrl } =
    useLoaderData<typeof loader>();
  const tabParam = tab === 'featured' ? 'featured' : null;
  const navigation = useNavigation();
  const search = keepSearch(listUrl);
  const randomizing =
    navigation.state === 'submitting' && navigation.formData?.get('intent') === 'randomize';

  return (
    <div>
      <header className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="font-heading text-3xl font-bold">Tracks</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            {weeklyRotation
              ? 'Weekly rotation is on: the featured track changes every Monday at midnight.'
              : 'Manage the catalogue and choose the featured track.'}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Form method="post" action={listUrl} preventScrollReset>
            <input type="hidden" name="intent" value="randomize" />
            <SubmitButton variant="outline" pending={randomizing} pendingLabel="Randomizing...">
              <Shuffle aria-hidden="true" className="h-4 w-4" />
              Randomize Featured
            </SubmitButton>
          </Form>
          <Link
            to={`/admin/tracks/settings${search}`}
            preventScrollReset
            className={buttonClass('outline')}
          >
            <Settings aria-hidden="true" className="h-4 w-4" />
            Settings
          </Link>
          <AddNewLink to={`/admin/tracks/new${search}`}>Add New Track</AddNewLink>
        </div>
      </header>

      <Outlet />

      <TabLinks
        label="Track filter"
        tabs={[
          {
            to: q ? `/admin/tracks?${new URLSearchParams({ q })}` : '/admin/tracks',
            label: 'All Tracks',
            current: tab === 'all',
          },
          {
            to: `/admin/tracks?${new URLSearchParams(q ? { tab: 'featured', q } : { tab: 'featured' })}`,
            label: 'Featured Tracks',
            current: tab === 'featured',
          },
        ]}
      />

      <AdminSearchForm
        id="track-search"
        label="Search tracks"
        placeholder="Title, artist or album"
        q={q}
        hidden={{ tab: tabParam }}
      />
      <p className="mb-4 text-sm text-muted-foreground" data-testid="track-count">
        {total === 1 ? '1 track' : `${total} tracks`}
        {q ? ` matching “${q}”` : ''}
      </p>

      <CardGrid
        items={tracks}
        empty="No tracks found"
        testId="admin-track-card"
        columns="sm:grid-cols-2 xl:grid-cols-3"
        column
      >
        {(track) => {
          const toggling =
            navigation.state === 'submitting' &&
            navigation.formData?.get('intent') === 'toggle-featured' &&
            navigation.formData?.get('id') === String(track.id);
          return (
            <>
              <CardCover
                src={track.coverImage}
                alt={`Cover of ${track.title}`}
                className="relative aspect-square bg-muted"
              >
                {track.featured ? (
                  <span className="absolute left-2 top-2 inline-flex items-center gap-1 rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-primary-foreground">
                    <Star aria-hidden="true" className="h-3 w-3 fill-current" />
                    Featured
                  </span>
                ) : null}
              </CardCover>
              <div className="flex flex-1 flex-col p-4">
                <h2 className="font-semibold">{track.title}</h2>
                <p className="text-sm text-muted-foreground">{track.artist}</p>
                <p className="mt-1 text-sm text-muted-foreground">
                  <span className="sr-only">Duration </span>
                  {track.duration}
                  {track.album ? <> · {track.album}</> : null}
                </p>
                <p className="mt-1 text-sm text-muted-foreground" data-testid="track-plays">
                  {plays[track.id]?.plays ?? 0} plays · {plays[track.id]?.starts ?? 0} play starts{' '}
                  <span className="text-xs">(last 30 days)</span>
                </p>
                {isMembersOnly(track) ? <MembersOnlyBadge item={track} className="mt-2" /> : null}
                {track.audioStatus === 'processing' ? (
                  <p className="mt-2 text-sm font-semibold" data-testid="track-audio-status">
                    Processing…
                  </p>
                ) : track.audioStatus === 'failed' ? (
                  <p className="mt-2 text-sm" data-testid="track-audio-status">
                    <span className="font-semibold">Processing failed</span>
                    {audioFailures[track.id] ? `: ${audioFailures[track.id]}` : null}
                  </p>
                ) : null}
                <div className="mt-4 flex flex-wrap gap-2">
                  <Form method="post" action={listUrl} preventScrollReset>
                    <input type="hidden" name="intent" value="toggle-featured" />
                    <input type="hidden" name="id" value={track.id} />
                    <input
                      type="hidden"
                      name="featured"
                      value={track.featured ? 'false' : 'true'}
                    />
                    <button
                      type="submit"
                      disabled={toggling}
                      aria-pressed={track.featured}
                      className={buttonClass(track.featured ? 'primary' : 'outline', 'sm')}
                    >
                      <Star
                        aria-hidden="true"
                        className={cn('h-4 w-4', track.featured && 'fill-current')}
                      />
                      {track.featured ? 'Featured' : 'Feature'}
                      <span className="sr-only"> {track.title}</span>
                    </button>
                  </Form>
                  <EditDeleteLinks
                    to={`/admin/tracks/${track.id}`}
                    name={track.title}
                    search={search}
                  />
                </div>
              </div>
            </>
          );
        }}
      </CardGrid>
      <AdminPagination
        path="/admin/tracks"
        params={{ tab: tabParam, q: q || null }}
        page={page}
        pageCount={pageCount}
      />
    </div>
  );
}
