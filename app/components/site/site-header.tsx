import { Form, Link, NavLink, useLocation } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';

import { LayoutDashboard, LogOut, Menu, Settings, X } from '~/components/site/icons';
import { buttonClass } from '~/components/ui/button';
import type { UserJSON } from '~/types/entities';
import { cn } from '~/utils/cn';

import { MAIN_LINKS, MOBILE_EXTRA_LINKS } from './nav-links';
import { SocialLinks, type SocialLinksConfig } from './social-icons';

/** The header turns solid after this many pixels of scrolling. */
export const HEADER_SCROLL_THRESHOLD = 10;

function useScrolled(threshold = HEADER_SCROLL_THRESHOLD) {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > threshold);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [threshold]);
  return scrolled;
}

/** Closes a <details> menu on navigation, on Escape and on a click outside it. */
function useDetailsMenu() {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [location.key]);
  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      const el = ref.current;
      if (el?.open && event.target instanceof Node && !el.contains(event.target)) el.open = false;
    };
    const onKey = (event: KeyboardEvent) => {
      const el = ref.current;
      if (event.key === 'Escape' && el?.open) {
        el.open = false;
        el.querySelector('summary')?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, []);
  return ref;
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn('nav-link', isActive ? 'text-primary' : 'text-foreground/90');

export function SiteHeader({
  siteName,
  user,
  social,
}: {
  siteName: string;
  user: UserJSON | null;
  social: Partial<SocialLinksConfig>;
}) {
  const scrolled = useScrolled();
  return (
    <header
      data-site-header
      data-scrolled={scrolled ? 'true' : 'false'}
      className={cn(
        'fixed inset-x-0 top-0 z-50 border-b transition-colors duration-300',
        scrolled
          ? 'border-border bg-background/80 backdrop-blur-md'
          : 'border-transparent bg-transparent',
      )}
    >
      {/* Without JavaScript the scroll state is unknown: keep the bar readable. */}
      <noscript>
        <link rel="stylesheet" href="/no-js.css" />
      </noscript>
      <div className="container flex h-16 items-center gap-4">
        <Link
          to="/"
          className="font-heading text-lg font-bold tracking-wider text-foreground hover:text-primary"
        >
          {siteName}
        </Link>
        <nav aria-label="Main" className="ml-auto hidden md:block">
          <ul className="flex items-center gap-1">
            {MAIN_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={link.end} prefetch="intent" className={navLinkClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <SocialLinks social={social} className="hidden gap-0 lg:flex" iconClassName="h-4 w-4" />
        <div className="ml-auto flex items-center gap-2 md:ml-0">
          {user ? (
            <UserMenu user={user} />
          ) : (
            <Link to="/auth" className={buttonClass('primary', 'sm', 'hidden sm:inline-flex')}>
              Login / Register
            </Link>
          )}
          <MobileMenu user={user} social={social} />
        </div>
      </div>
    </header>
  );
}

function Avatar({ username }: { username: string }) {
  return (
    <span
      aria-hidden="true"
      className="inline-flex h-9 w-9 items-center justify-center rounded-full bg-primary font-heading text-sm font-bold uppercase text-primary-foreground"
    >
      {username.slice(0, 1)}
    </span>
  );
}

function UserMenu({ user }: { user: UserJSON }) {
  const ref = useDetailsMenu();
  return (
    <details ref={ref} className="relative hidden md:block" data-testid="user-menu">
      <summary className="flex cursor-pointer list-none items-center rounded-full [&::-webkit-details-marker]:hidden">
        <Avatar username={user.username} />
        <span className="sr-only">Account menu for @{user.username}</span>
      </summary>
      <div className="absolute right-0 mt-2 w-56 rounded-lg border border-border bg-popover p-2 text-popover-foreground shadow-xl">
        <div className="px-2 py-1.5">
          <p className="text-sm font-semibold">@{user.username}</p>
          <p className="text-xs text-muted-foreground">{user.isAdmin ? 'Administrator' : 'User'}</p>
        </div>
        <div className="my-1 h-px bg-border" />
        <AccountLinks isAdmin={user.isAdmin} divider />
        <Form method="post" action="/logout">
          <button type="submit" className={cn(menuItemClass, 'w-full')}>
            <LogOut aria-hidden="true" className="h-4 w-4" />
            Log out
          </button>
        </Form>
      </div>
    </details>
  );
}

/** The account's links, the same in the desktop menu and the mobile one. */
function AccountLinks({ isAdmin, divider = false }: { isAdmin: boolean; divider?: boolean }) {
  return (
    <>
      {isAdmin ? (
        <>
          <Link to="/admin" className={menuItemClass}>
            <LayoutDashboard aria-hidden="true" className="h-4 w-4" />
            Admin Dashboard
          </Link>
          <Link to="/admin/settings" className={menuItemClass}>
            <Settings aria-hidden="true" className="h-4 w-4" />
            Site Settings
          </Link>
          {divider ? <div className="my-1 h-px bg-border" /> : null}
        </>
      ) : null}
      <Link to="/account" className={menuItemClass}>
        <Settings aria-hidden="true" className="h-4 w-4" />
        Change password
      </Link>
    </>
  );
}

const menuItemClass =
  'flex min-h-9 items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-muted focus-visible:bg-muted';

function MobileMenu({
  user,
  social,
}: {
  user: UserJSON | null;
  social: Partial<SocialLinksConfig>;
}) {
  const ref = useDetailsMenu();
  return (
    <details ref={ref} className="group md:hidden" data-testid="mobile-menu">
      <summary
        className={cn(
          buttonClass('ghost', 'icon'),
          'cursor-pointer list-none [&::-webkit-details-marker]:hidden',
        )}
      >
        <Menu aria-hidden="true" className="h-6 w-6 group-open:hidden" />
        <X aria-hidden="true" className="hidden h-6 w-6 group-open:block" />
        <span className="sr-only">Menu</span>
      </summary>
      <div className="absolute inset-x-0 top-16 max-h-[calc(100vh-4rem)] overflow-y-auto border-b border-border bg-background/95 backdrop-blur-md">
        <nav aria-label="Mobile" className="container py-4">
          <ul className="flex flex-col gap-1">
            {[...MAIN_LINKS, ...MOBILE_EXTRA_LINKS].map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end={link.end}
                  className={({ isActive }) =>
                    cn('menu-link', isActive ? 'text-primary' : 'text-foreground')
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <SocialLinks social={social} className="mt-4 border-t border-border pt-4" />
          <div className="mt-4 border-t border-border pt-4">
            {user ? (
              <div className="space-y-2">
                <div className="flex items-center gap-3 px-1">
                  <Avatar username={user.username} />
                  <div>
                    <p className="text-sm font-semibold">@{user.username}</p>
                    <p className="text-xs text-muted-foreground">
                      {user.isAdmin ? 'Administrator' : 'User'}
                    </p>
                  </div>
                </div>
                <AccountLinks isAdmin={user.isAdmin} />
                <Form method="post" action="/logout">
                  <button type="submit" className={buttonClass('outline', 'md', 'w-full')}>
                    <LogOut aria-hidden="true" className="h-4 w-4" />
                    Log out
                  </button>
                </Form>
              </div>
            ) : (
              <Link to="/auth" className={buttonClass('primary', 'md', 'w-full')}>
                Login / Register
              </Link>
            )}
          </div>
        </nav>
      </div>
    </details>
  );
}
