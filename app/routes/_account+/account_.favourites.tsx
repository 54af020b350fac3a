import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';

import { requireUser, safeRedirect } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { Play } from '~/components/site/icons';
import { EmptyState, PageHeader } from '~/components/site/section-heading';
import { buttonClass } from '~/components/ui/button';
import { imageInfos } from '~/files/image-derivatives.server';
import {
  addFavourite,
  listFavouriteTrackIds,
  mergeFavourites,
  removeFavourite,
} from '~/models/favourite.server';
import { parseId } from '~/models/model-helpers.server';
import { listTracks } from '~/models/track.server';
import { badRequest } from '~/platform/http-errors.server';
import { readForm } from '~/platform/request-body.server';
import { usePlayerCommands } from '~/player/player-provider';
import { TRACK_GRID_CLASS, TRACK_GRID_SIZES, TrackGrid } from '~/player/track-card';
import { useHydrated } from '~/player/use-hydrated';
import { pageTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => [pageTitle(matches, 'My favourites')];

const NO_FAVOURITES = 'No favourites yet';

/** /account/favourites: the member's favourite tracks, in the order they were added. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [ids, all] = await Promise.all([listFavouriteTrackIds(user.id), listTracks()]);
  const byId = new Map(all.map((t) => [t.id, t]));
  const tracks = ids.flatMap((id) => byId.get(id) ?? []);
  return { tracks, infos: await imageInfos(tracks.map((t) => t.coverImage)) };
}

/**
 * The heart's form (decision 019), JS on or off: `intent` add or remove with a `trackId`, or
 * merge with `trackIds` (comma-separated, the browser's own list at login). With `redirectTo`
 * (the form without JS) the answer is a redirect back there with a flash message; without it
 * (the player's fetcher) the account's list as data.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const intent = form.get('intent');
  let trackIds: number[];
  let added = false;
  if (intent === 'merge') {
    const ids = String(form.get('trackIds') ?? '')
      .split(',')
      .map((part) => parseId(part.trim()))
      .filter((id): id is number => id !== null);
    trackIds = await mergeFavourites(user.id, ids);
  } else if (intent === 'add' || intent === 'remove') {
    const trackId = parseId(String(form.get('trackId') ?? ''));
    if (trackId === null) throw badRequest('Track not found');
    if (intent === 'add') {
      if (!(await addFavourite(user.id, trackId))) throw badRequest('Track not found');
      added = true;
    } else {
      await removeFavourite(user.id, trackId);
    }
    trackIds = await listFavouriteTrackIds(user.id);
  } else {
    throw badRequest();
  }
  const redirectTo = form.get('redirectTo');
  if (typeof redirectTo === 'string' && redirectTo !== '') {
    return redirectWithToast(safeRedirect(redirectTo, '/account/favourites'), {
      type: 'success',
      title: added ? 'Added to your favourites' : 'Removed from your favourites',
    });
  }
  return data({ trackIds });
}

export default function FavouritesPage() {
  const { tracks, infos } = useLoaderData<typeof loader>();
  const player = usePlayerCommands();
  const hydrated = useHydrated();
  return (
    <>
      <PageHeader
        title="My favourites"
        intro="The tracks you hearted, saved to your account: on every browser you log in with."
      >
        <div className="mt-6 flex flex-wrap gap-3">
          {hydrated && tracks.length > 0 ? (
            <button
              type="button"
              className={buttonClass('primary', 'md')}
              onClick={() => {
                player.setQueue(tracks, 0, { keepCurrent: false });
                player.playTrack(tracks[0]!);
              }}
            >
              <Play className="h-4 w-4" />
              Play all
            </button>
          ) : null}
          <Link to="/account" className={buttonClass('outline', 'md')}>
            Back to account
          </Link>
        </div>
      </PageHeader>
      <section aria-label="Favourite tracks" className="container py-12">
        {tracks.length === 0 ? (
          <EmptyState
            title={NO_FAVOURITES}
            text="Press the heart on a track (on the music page or in the player) to keep it here."
          />
        ) : (
          <TrackGrid
            tracks={tracks}
            infos={infos}
            className={TRACK_GRID_CLASS}
            sizes={TRACK_GRID_SIZES}
            testId="favourites"
          />
        )}
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
