import { Link } from '@remix-run/react';

import { Pencil, Plus, Trash2 } from '~/components/admin/icons';
import { buttonClass } from '~/components/ui/button';

/**
 * An admin list item's Edit and Delete links, each opening its dialog route (`{to}/edit`,
 * `{to}/delete`) over the list without scrolling it; `search` keeps the list's filters.
 * The item's name completes each link's accessible name ("Edit Neon Boardwalk").
 */
export function EditDeleteLinks({
  to,
  name,
  search = '',
  variant = 'outline',
}: {
  to: string;
  name: string;
  search?: string;
  variant?: 'outline' | 'ghost';
}) {
  return (
    <>
      <Link to={`${to}/edit${search}`} preventScrollReset className={buttonClass(variant, 'sm')}>
        <Pencil aria-hidden="true" className="h-4 w-4" />
        Edit<span className="sr-only"> {name}</span>
      </Link>
      <Link
        to={`${to}/delete${search}`}
        preventScrollReset
        className={buttonClass(variant, 'sm', 'text-destructive hover:text-destructive')}
      >
        <Trash2 aria-hidden="true" className="h-4 w-4" />
        Delete<span className="sr-only"> {name}</span>
      </Link>
    </>
  );
}

/**
 * An admin list's link to its add dialog (`/admin/<things>/new` with the list's search), the
 * primary button of its header: "Add New Track", "Create New Post".
 */
export function AddNewLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link to={to} preventScrollReset className={buttonClass('primary')}>
      <Plus aria-hidden="true" className="h-4 w-4" />
      {children}
    </Link>
  );
}
