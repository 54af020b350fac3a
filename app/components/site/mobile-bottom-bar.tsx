import { NavLink } from '@remix-run/react';

import { CalendarDays, Home, Images, Music, Newspaper } from '~/components/site/icons';
import type { IconComponent } from '~/components/ui/sprite-icon';
import { MobilePlayButton } from '~/player/mobile-play-button';
import { cn } from '~/utils/cn';

const slotClass = ({ isActive }: { isActive: boolean }) =>
  cn('bottom-bar-slot', isActive ? 'text-primary' : 'text-muted-foreground hover:text-foreground');

type Slot = { to: string; label: string; icon: IconComponent; end?: boolean };

/** Two links, then the play/pause button, then three more. */
const BEFORE_PLAY: readonly Slot[] = [
  { to: '/', label: 'Home', icon: Home, end: true },
  { to: '/music', label: 'Music', icon: Music },
];
const AFTER_PLAY: readonly Slot[] = [
  { to: '/gallery', label: 'Gallery', icon: Images },
  { to: '/blog', label: 'Blog', icon: Newspaper },
  { to: '/shows', label: 'Shows', icon: CalendarDays },
];

function SlotLink({ to, label, icon: Icon, end }: Slot) {
  return (
    <li className="flex justify-center">
      <NavLink to={to} end={end} className={slotClass}>
        <Icon aria-hidden="true" className="h-5 w-5" />
        {label}
      </NavLink>
    </li>
  );
}

/** Six slots on small screens, in this order: Home, Music, play/pause, Gallery, Blog, Shows. */
export function MobileBottomBar() {
  return (
    <nav
      aria-label="Mobile quick links"
      className="border-t border-border bg-background/95 backdrop-blur md:hidden"
    >
      <ul className="grid grid-cols-6 items-center px-1 py-1">
        {BEFORE_PLAY.map((slot) => (
          <SlotLink key={slot.to} {...slot} />
        ))}
        <li className="flex justify-center">
          <MobilePlayButton />
        </li>
        {AFTER_PLAY.map((slot) => (
          <SlotLink key={slot.to} {...slot} />
        ))}
      </ul>
    </nav>
  );
}
