import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { requireAdmin } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { parseId } from '~/models/model-helpers.server';
import { catchServerFailure } from '~/platform/http-errors.server';

import { loadAdminItem } from './admin-item.server';

/**
 * An admin delete route, `/admin/<things>/$id/delete`: its loader finds the item for the
 * confirmation (a page without JavaScript, a dialog with it: `ConfirmDeleteDialog`), its
 * action deletes the item and goes back to the list with a toast. Both post to and answer
 * from the same route, so the two ways of confirming share one action.
 *
 * A route gives its nouns and model calls:
 *
 *   const tracks = { notFound: 'Track not found', ... } satisfies DeleteRoute<TrackJSON>;
 *   export const loader = (args: LoaderFunctionArgs) => deleteLoader(args, tracks);
 *   export const action = (args: ActionFunctionArgs) => deleteAction(args, tracks);
 */
export type DeleteRoute<T> = {
  /** The 404 of the confirmation, and the error toast when the item is gone by the time. */
  notFound: string;
  /** The error toast's title, e.g. 'Failed to delete track'. */
  failureTitle: string;
  /** The success toast, e.g. 'Track deleted' and `"${title}" was deleted.` */
  successTitle: string;
  successDescription: (removed: T) => string;
  get: (id: number) => Promise<T | null>;
  remove: (id: number) => Promise<T | null>;
  /** The list the dialog closes to and the action returns to (with the list's tab or search). */
  listUrl: (request: Request) => string;
};

/** The item to confirm (404 when there is none) and where "Cancel" goes. */
export function deleteLoader<T>(
  args: LoaderFunctionArgs,
  route: DeleteRoute<T>,
): Promise<{ item: T; closeTo: string }> {
  return loadAdminItem(args, route.get, route.notFound, () => route.listUrl(args.request));
}

/**
 * Delete, then back to the list with a success or an error toast (never the error page). A
 * delete that fails on our side is logged with the request id; its toast says so in the
 * generic words (`catchServerFailure`).
 */
export async function deleteAction<T>(
  { request, params }: ActionFunctionArgs,
  route: DeleteRoute<T>,
): Promise<Response> {
  await requireAdmin(request);
  const to = route.listUrl(request);
  const fail = (description: string) =>
    redirectWithToast(to, { type: 'error', title: route.failureTitle, description });
  const id = parseId(params.id);
  if (id === null) return fail(route.notFound);
  return catchServerFailure(
    request,
    `${route.failureTitle.toLowerCase()} (id ${id})`,
    async () => {
      const removed = await route.remove(id);
      if (!removed) return fail(route.notFound);
      return redirectWithToast(to, {
        type: 'success',
        title: route.successTitle,
        description: route.successDescription(removed),
      });
    },
    fail,
  );
}
