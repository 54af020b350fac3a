import { Palette, Star } from '~/components/admin/icons';
import { Thumbnail } from '~/components/ui/thumbnail';
import type { ThemeJSON, TrackJSON } from '~/types/entities';

import { DashboardCard } from './dashboard-card';

/** The track the home page features now, and whether it rotates weekly. */
export function FeaturedTrackCard({
  featured,
  weeklyRotation,
}: {
  featured: TrackJSON | null;
  weeklyRotation: boolean;
}) {
  return (
    <DashboardCard
      title="Featured Track"
      icon={Star}
      link={{ to: '/admin/tracks?tab=featured', label: 'Manage Tracks' }}
    >
      {featured ? (
        <div className="flex items-center gap-4" data-testid="dashboard-featured-track">
          <Thumbnail
            src={featured.coverImage}
            size={80}
            className="h-20 w-20 rounded-md object-cover"
          />
          <div>
            <p className="font-semibold">{featured.title}</p>
            {featured.album ? (
              <p className="text-sm text-muted-foreground">{featured.album}</p>
            ) : null}
            {weeklyRotation ? (
              <p className="mt-1 text-xs text-muted-foreground">Weekly rotation is on</p>
            ) : null}
          </div>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">No featured track set</p>
      )}
    </DashboardCard>
  );
}

/** A summary of the site appearance: mode, primary colour and fonts. */
export function SiteSettingsCard({
  theme,
}: {
  theme: Pick<ThemeJSON, 'appearance' | 'primary' | 'headerFont' | 'bodyFont'>;
}) {
  return (
    <DashboardCard
      title="Site Settings"
      icon={Palette}
      link={{ to: '/admin/settings', label: 'Edit Site Settings' }}
    >
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <dt className="text-muted-foreground">Appearance</dt>
        <dd className="capitalize">{theme.appearance}</dd>
        <dt className="text-muted-foreground">Primary colour</dt>
        <dd className="flex items-center gap-2">
          <span
            aria-hidden="true"
            className="h-4 w-4 rounded-full border border-border"
            style={{ background: theme.primary }}
          />
          {theme.primary}
        </dd>
        <dt className="text-muted-foreground">Fonts</dt>
        <dd>
          {theme.headerFont} / {theme.bodyFont}
        </dd>
      </dl>
    </DashboardCard>
  );
}
