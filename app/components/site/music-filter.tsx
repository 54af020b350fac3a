import { Link } from '@remix-run/react';

import { cn } from '~/utils/cn';

/** The filters of /music, as `?type=` (decision 034): everything, or only the long sets. */
export const MUSIC_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'mixes', label: 'Mixes' },
] as const;
export type MusicFilter = (typeof MUSIC_FILTERS)[number]['value'];

/** `?type=mixes` → 'mixes'; anything else → 'all'. */
export function musicFilterOf(search: URLSearchParams): MusicFilter {
  return search.get('type') === 'mixes' ? 'mixes' : 'all';
}

/**
 * The filter as links (work without JS; with JS the same URL, navigated on the client). The
 * search text is kept.
 */
export function MusicFilterLinks({ filter, q }: { filter: MusicFilter; q: string }) {
  return (
    <nav aria-label="Filter tracks" className="mt-4 flex gap-2">
      {MUSIC_FILTERS.map((f) => {
        const params = new URLSearchParams();
        if (q) params.set('q', q);
        if (f.value !== 'all') params.set('type', f.value);
        const search = params.toString();
        const current = f.value === filter;
        return (
          <Link
            key={f.value}
            to={search ? `/music?${search}` : '/music'}
            preventScrollReset
            aria-current={current ? 'page' : undefined}
            className={cn(
              'inline-flex min-h-10 items-center rounded-full border px-4 py-2 text-sm font-semibold',
              current
                ? 'border-primary bg-primary text-primary-foreground'
                : 'border-border hover:border-primary hover:text-primary',
            )}
          >
            {f.label}
          </Link>
        );
      })}
    </nav>
  );
}
