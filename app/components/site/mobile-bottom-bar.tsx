import { NavLink } from '@remix-run/react';

import { CalendarDays, Home, Images, Music, Newspaper } from '~/components/site/icons';
import { MobilePlayButton } from '~/player/mobile-play-button';
import { cn } from '~/utils/cn';

const slotClass = ({ isActive }: { isActive: boolean }) =>
  cn('bottom-bar-slot', isActive ? 'text-primary' : 'text-muted-foreground hover:text-foreground');

/** Six slots on small screens, in this order: Home, Music, play/pause, Gallery, Blog, Shows. */
export function MobileBottomBar() {
  return (
    <nav
      aria-label="Mobile quick links"
      className="border-t border-border bg-background/95 backdrop-blur md:hidden"
    >
      <ul className="grid grid-cols-6 items-center px-1 py-1">
        <li className="flex justify-center">
          <NavLink to="/" end className={slotClass}>
            <Home aria-hidden="true" className="h-5 w-5" />
            Home
          </NavLink>
        </li>
        <li className="flex justify-center">
          <NavLink to="/music" className={slotClass}>
            <Music aria-hidden="true" className="h-5 w-5" />
            Music
          </NavLink>
        </li>
        <li className="flex justify-center">
          <MobilePlayButton />
        </li>
        <li className="flex justify-center">
          <NavLink to="/gallery" className={slotClass}>
            <Images aria-hidden="true" className="h-5 w-5" />
            Gallery
          </NavLink>
        </li>
        <li className="flex justify-center">
          <NavLink to="/blog" className={slotClass}>
            <Newspaper aria-hidden="true" className="h-5 w-5" />
            Blog
          </NavLink>
        </li>
        <li className="flex justify-center">
          <NavLink to="/shows" className={slotClass}>
            <CalendarDays aria-hidden="true" className="h-5 w-5" />
            Shows
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}
