import { siFacebook, siInstagram, siSoundcloud, siSpotify, siX, siYoutube } from 'simple-icons';
import { cn } from '~/utils/cn';

/** The networks the site links to: photos, short messages, video, streaming, sound, social. */
export type SocialNetwork =
  'instagram' | 'twitter' | 'youtube' | 'spotify' | 'soundcloud' | 'facebook';

export type SocialLinksConfig = Record<SocialNetwork, string>;

const ICONS: Record<SocialNetwork, { path: string; label: string }> = {
  instagram: { path: siInstagram.path, label: 'Instagram' },
  twitter: { path: siX.path, label: 'X (Twitter)' },
  youtube: { path: siYoutube.path, label: 'YouTube' },
  spotify: { path: siSpotify.path, label: 'Spotify' },
  soundcloud: { path: siSoundcloud.path, label: 'SoundCloud' },
  facebook: { path: siFacebook.path, label: 'Facebook' },
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

const symbolId = (network: SocialNetwork) => `social-icon-${network}`;

/**
 * The networks' icon paths, once per page (the shell renders it): each icon is a `<use>` of
 * its symbol. The paths are long (about 1 KB each) and the header, its mobile menu and the
 * footer show the same five, so the page carries each once instead of three times.
 */
export function SocialIconSprite() {
  return (
    <svg aria-hidden="true" focusable="false" className="hidden">
      {ALL_NETWORKS.map((network) => (
        <symbol key={network} id={symbolId(network)} viewBox="0 0 24 24">
          <path d={ICONS[network].path} />
        </symbol>
      ))}
    </svg>
  );
}

/** A network's icon; needs the page's <SocialIconSprite/> (in the site shell). */
export function SocialIcon({ network, className }: { network: SocialNetwork; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      className={cn('h-5 w-5 fill-current', className)}
    >
      <use href={`#${symbolId(network)}`} />
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
            aria-label={withLabels ? undefined : `${ICONS[network].label} (opens in a new tab)`}
            className={cn(
              'inline-flex min-h-9 min-w-9 items-center justify-center gap-2 rounded-md p-2 text-muted-foreground transition-colors hover:bg-muted hover:text-foreground',
              linkClassName,
            )}
          >
            <SocialIcon network={network} className={iconClassName} />
            {withLabels ? (
              <span>
                {ICONS[network].label}
                <span className="sr-only"> (opens in a new tab)</span>
              </span>
            ) : null}
          </a>
        </li>
      ))}
    </ul>
  );
}
