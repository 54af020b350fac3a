import { Form, Link } from '@remix-run/react';

import { usePostPending } from '~/components/admin/use-post-pending';
import { buttonClass, SubmitButton } from '~/components/ui/button';
import { RouteDialog } from '~/components/ui/route-dialog';

/**
 * A delete confirmation that is a route (`…/$id/delete`): a page section without
 * JavaScript, a modal with it. Its form posts to the route's own action.
 */
export function ConfirmDeleteDialog({
  title,
  description,
  closeTo,
  confirmLabel = 'Delete',
  pendingLabel = 'Deleting...',
  children,
}: {
  title: string;
  description: React.ReactNode;
  closeTo: string;
  confirmLabel?: string;
  pendingLabel?: string;
  children?: React.ReactNode;
}) {
  const pending = usePostPending();
  return (
    <RouteDialog title={title} description={description} closeTo={closeTo}>
      {children}
      <Form method="post" className="mt-6 flex flex-wrap justify-end gap-2">
        <Link to={closeTo} preventScrollReset className={buttonClass('outline')}>
          Cancel
        </Link>
        <SubmitButton variant="destructive" pending={pending} pendingLabel={pendingLabel}>
          {confirmLabel}
        </SubmitButton>
      </Form>
    </RouteDialog>
  );
}
