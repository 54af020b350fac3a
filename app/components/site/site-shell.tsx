import { Link, NavLink } from '@remix-run/react';
import { useRootData } from '~/root';

/**
 * The app shell: header, main area, footer, the fixed bottom area (player), and toasts.
 * (The full header, footer, mobile bar and toaster are built in the public-site work.)
 */
export function SiteShell({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  return (
    <>
      <header className="fixed inset-x-0 top-0 z-40 border-b border-border bg-background/80 backdrop-blur">
        <nav aria-label="Main" className="container flex h-16 items-center gap-6">
          <Link to="/" className="font-heading text-lg font-bold">
            {root?.site.siteName ?? 'Night Shore'}
          </Link>
          {[
            ['/', 'Home'],
            ['/music', 'Music'],
            ['/gallery', 'Gallery'],
            ['/blog', 'Blog'],
            ['/shows', 'Shows'],
            ['/about', 'About'],
          ].map(([to, label]) => (
            <NavLink key={to} to={to} end={to === '/'} className="text-sm">
              {label}
            </NavLink>
          ))}
        </nav>
      </header>
      <main id="main" className="pt-16">
        {children}
      </main>
      <footer className="border-t border-border py-8 text-center text-sm text-muted-foreground">
        © {root?.year} {root?.site.siteName}
      </footer>
    </>
  );
}
