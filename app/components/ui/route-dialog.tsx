import { Link, useNavigate } from '@remix-run/react';
import { useEffect, useId, useRef } from 'react';

import { X } from '~/components/site/icons';
import { cn } from '~/utils/cn';

/**
 * A dialog that is a route (e.g. /admin/tracks/new as a child of /admin/tracks).
 *
 * Without JavaScript it renders as an open, non-modal <dialog> in the page flow, with a
 * real form and a "Cancel" link back to `closeTo`. With JavaScript it opens as a modal
 * (focus trapped, Escape closes) over the list, and closing navigates to `closeTo`.
 * Both post the same form to the route's action, which redirects back with a toast.
 */
export function RouteDialog({
  title,
  description,
  closeTo,
  children,
  size = 'md',
}: {
  title: string;
  description?: React.ReactNode;
  closeTo: string;
  children: React.ReactNode;
  size?: 'md' | 'lg' | 'xl';
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Upgrade the server-rendered, non-modal dialog to a modal one.
    if (dialog.open) dialog.close();
    dialog.showModal();
    const onCancel = (event: Event) => {
      event.preventDefault();
      navigate(closeTo, { preventScrollReset: true });
    };
    dialog.addEventListener('cancel', onCancel);
    return () => dialog.removeEventListener('cancel', onCancel);
  }, [closeTo, navigate]);

  return (
    <dialog
      ref={ref}
      open
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      className={cn(
        'relative z-50 mx-auto my-8 w-full rounded-lg border border-border bg-card p-0 text-card-foreground shadow-2xl',
        'backdrop:bg-black/70 open:block',
        size === 'md' ? 'max-w-lg' : size === 'lg' ? 'max-w-2xl' : 'max-w-4xl',
      )}
    >
      <div className="max-h-[85vh] overflow-y-auto p-6">
        <div className="mb-4 flex items-start justify-between gap-4">
          <div>
            <h2 id={titleId} className="text-xl font-bold">
              {title}
            </h2>
            {description ? (
              <div id={descriptionId} className="mt-1 text-sm text-muted-foreground">
                {description}
              </div>
            ) : null}
          </div>
          <Link
            to={closeTo}
            preventScrollReset
            className="rounded-md p-1 text-muted-foreground hover:bg-muted hover:text-foreground"
            aria-label="Close"
          >
            <X aria-hidden="true" className="h-5 w-5" />
          </Link>
        </div>
        {children}
      </div>
    </dialog>
  );
}
