import { Link } from '@remix-run/react';

import { cn } from '~/utils/cn';

export type TabLink = { to: string; label: string; current: boolean };

/**
 * Tabs that are links (`?tab=…`): they work without JavaScript, the loader reads the
 * tab from the URL, and the current one is marked with aria-current.
 */
export function TabLinks({ tabs, label }: { tabs: TabLink[]; label: string }) {
  return (
    <nav aria-label={label} className="mb-6 border-b border-border">
      <ul className="-mb-px flex flex-wrap gap-1">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <Link
              to={tab.to}
              preventScrollReset
              aria-current={tab.current ? 'page' : undefined}
              className={cn(
                'inline-flex items-center border-b-2 px-4 py-2 text-sm font-medium transition-colors',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                tab.current
                  ? 'border-primary text-foreground'
                  : 'border-transparent text-muted-foreground hover:text-foreground',
              )}
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
