import { Link } from '@remix-run/react';

import { buttonClass } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import type { IconComponent } from '~/components/ui/sprite-icon';

import { shortDate } from './short-date';

type DashboardCardProps = {
  title: string;
  icon: IconComponent;
  /** The card's way on: a link under it to the section that manages what it shows. */
  link: { to: string; label: string };
  children: React.ReactNode;
};

/** A card of the dashboard: a titled panel with a link on to its section of the back office. */
export function DashboardCard({ title, icon, link, children }: DashboardCardProps) {
  return (
    <Card
      title={title}
      icon={icon}
      action={
        <Link to={link.to} className={buttonClass('outline', 'sm')}>
          {link.label}
        </Link>
      }
    >
      {children}
    </Card>
  );
}

/** A dashboard card listing the latest records, or a line when there are none. */
export function DashboardListCard<T extends { id: number }>({
  items,
  empty,
  itemClassName = 'py-2',
  testId,
  children,
  ...card
}: Omit<DashboardCardProps, 'children'> & {
  items: readonly T[];
  empty: string;
  itemClassName?: string;
  testId?: string;
  children: (item: T) => React.ReactNode;
}) {
  return (
    <DashboardCard {...card}>
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className="divide-y divide-border" data-testid={testId}>
          {items.map((item) => (
            <li key={item.id} className={itemClassName}>
              {children(item)}
            </li>
          ))}
        </ul>
      )}
    </DashboardCard>
  );
}

/** When a listed record was made, at the end of its row. */
export function RowDate({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} className="shrink-0 text-xs text-muted-foreground">
      {shortDate(iso)}
    </time>
  );
}
