import { cn } from '~/utils/cn';

import { type SocialNetwork, socialSymbolId } from './icon-names';
import spriteHref from './sprite.svg';

export type { SocialNetwork };
export type SocialLinksConfig = Record<SocialNetwork, string>;

/** The networks' names; their icons are Simple Icons' (CC0), in the site's sprite (icon-names.ts). */
const LABELS: Record<SocialNetwork, string> = {
  instagram: 'Instagram',
  twitter: 'X (Twitter)',
  youtube: 'YouTube',
  spotify: 'Spotify',
  soundcloud: 'SoundCloud',
  facebook: 'Facebook',
};

/** The five header/footer networks, in the order the header and footer show them. */
export const HEADER_NETWORKS: SocialNetwork[] = [
  'instagram',
  'twitter',
  'youtube',
  'spotify',
  'facebook',
];
/** The About page adds the sound platform. */
export const ALL_NETWORKS: SocialNetwork[] = [
  'instagram',
  'twitter',
  'youtube',
  'spotify',
  'soundcloud',
  'facebook',
];

/** A network's icon: a `<use>` of its symbol in the site's sprite. */
export function SocialIcon({ network, className }: { network: SocialNetwork; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      className={cn('fill-current', className ?? 'h-5 w-5')}
    >
      <use href={`${spriteHref}#${socialSymbolId(network)}`} />
    </svg>
  );
}

/** External links, each opening in a new tab; empty URLs are skipped. */
export function SocialLinks({
  social,
  networks = HEADER_NETWORKS,
  className,
  linkClassName,
  iconClassName,
  withLabels = false,
}: {
  social: Partial<SocialLinksConfig>;
  networks?: SocialNetwork[];
  className?: string;
  linkClassName?: string;
  iconClassName?: string;
  withLabels?: boolean;
}) {
  const items = networks.filter((n) => Boolean(social[n]));
  if (items.length === 0) return null;
  return (
    <ul className={cn('flex flex-wrap items-center gap-1', className)}>
      {items.map((network) => (
        <li key={network}>
          <a
            href={social[network]}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={withLabels ? undefined : `${LABELS[network]} (opens in a new tab)`}
            className={cn('social-link', linkClassName)}
          >
            <SocialIcon network={network} className={iconClassName} />
            {withLabels ? (
              <span>
                {LABELS[network]}
                <span className="sr-only"> (opens in a new tab)</span>
              </span>
            ) : null}
          </a>
        </li>
      ))}
    </ul>
  );
}
