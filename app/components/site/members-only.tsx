import { Link } from '@remix-run/react';

import { Lock } from '~/components/site/icons';
import type { Visibility } from '~/types/entities';
import { MEMBERS_ONLY, publicOnText, unlockHref } from '~/utils/access';
import { cn } from '~/utils/cn';

type Restricted = { visibility: Visibility; publicAt: string | null };

/**
 * The "Members only" badge of a locked track or post, with "Public on {date}" under early
 * access. Shown to visitors without an account (the item is `locked` for them).
 */
export function MembersOnlyBadge({ item, className }: { item: Restricted; className?: string }) {
  const publicOn = publicOnText(item);
  return (
    <span className={cn('inline-flex flex-wrap items-center gap-2 text-xs', className)}>
      <span className="inline-flex items-center gap-1 rounded-full border border-primary px-2.5 py-0.5 font-bold uppercase tracking-wider text-foreground">
        <Lock className="h-3 w-3" />
        {MEMBERS_ONLY}
      </span>
      {publicOn ? <span className="text-muted-foreground">{publicOn}</span> : null}
    </span>
  );
}

/** The link a locked item offers instead of play or read: log in, then come back to `path`. */
export function UnlockLink({
  path,
  children,
  className,
}: {
  path: string;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <Link to={unlockHref(path)} className={className}>
      <Lock className="h-4 w-4" />
      {children}
    </Link>
  );
}
