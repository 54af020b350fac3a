import { useLocation } from '@remix-run/react';

import { Heart } from '~/components/site/icons';
import { cn } from '~/utils/cn';

import { usePlayerCommands, usePlayerSelector } from './player-provider';
import { FAVOURITES_ACTION } from './use-favourites';
import { useHydrated } from './use-hydrated';

/**
 * The heart of a track (decision 019). Once hydrated, a toggle button: a member's favourites
 * go to the account, a visitor's stay in this browser. Before hydration (or without JS) a
 * member gets a real form posting to the favourites action, back to this page; a visitor gets
 * nothing (local favourites need JS).
 */
export function FavouriteButton({ trackId, title }: { trackId: number; title: string }) {
  // Only this track's slice (decision 034): toggling one heart re-renders that heart alone.
  const player = usePlayerCommands();
  const hydrated = useHydrated();
  const on = usePlayerSelector((s) => s.favourites.includes(trackId));
  const label = on ? `Remove ${title} from favourites` : `Add ${title} to favourites`;
  const className = 'round-button';
  const icon = <Heart aria-hidden className={cn('h-4 w-4', on && 'fill-current text-primary')} />;

  if (hydrated) {
    return (
      <button
        type="button"
        aria-label={label}
        title={label}
        aria-pressed={on}
        onClick={() => player.toggleFavourite(trackId)}
        className={className}
      >
        {icon}
      </button>
    );
  }
  if (!player.favouritesInAccount) return null;
  return <HeartForm trackId={trackId} on={on} label={label} className={className} icon={icon} />;
}

/** Without JS: a form posting to the favourites action, which brings the member back here. */
function HeartForm({
  trackId,
  on,
  label,
  className,
  icon,
}: {
  trackId: number;
  on: boolean;
  label: string;
  className: string;
  icon: React.ReactNode;
}) {
  const location = useLocation();
  return (
    <form method="post" action={FAVOURITES_ACTION}>
      <input type="hidden" name="intent" value={on ? 'remove' : 'add'} />
      <input type="hidden" name="trackId" value={trackId} />
      <input
        type="hidden"
        name="redirectTo"
        value={`${location.pathname}${location.search}#track-${trackId}`}
      />
      <button
        type="submit"
        aria-label={label}
        title={label}
        aria-pressed={on}
        className={className}
      >
        {icon}
      </button>
    </form>
  );
}
