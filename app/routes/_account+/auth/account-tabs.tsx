import { Link } from '@remix-run/react';

import { cn } from '~/utils/cn';

/**
 * Login and Register as links (`?tab=register`, keeping `redirectTo`), so switching works
 * without JavaScript; the active one is marked with aria-current.
 */
export function AccountTabs({
  active,
  redirectTo,
}: {
  active: 'login' | 'register';
  redirectTo: string;
}) {
  const tabHref = (t: 'login' | 'register') => {
    const params = new URLSearchParams({ tab: t });
    if (redirectTo) params.set('redirectTo', redirectTo);
    return `/auth?${params}`;
  };

  return (
    <nav aria-label="Account" className="mt-6">
      <ul className="grid grid-cols-2 gap-1 rounded-md bg-muted p-1">
        {(['login', 'register'] as const).map((t) => (
          <li key={t}>
            <Link
              to={tabHref(t)}
              replace
              preventScrollReset
              aria-current={active === t ? 'page' : undefined}
              className={cn(
                'block rounded-sm px-3 py-2 text-center text-sm font-semibold transition-colors',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                active === t
                  ? 'bg-background text-foreground shadow'
                  : 'text-muted-foreground hover:text-foreground',
              )}
            >
              {t === 'login' ? 'Login' : 'Register'}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
