import type { LoaderFunctionArgs } from '@remix-run/node';

import { requireAdmin } from '~/auth/auth.server';
import { findByIdParam } from '~/models/model-helpers.server';
import { notFound } from '~/platform/http-errors.server';

/**
 * The loader of an admin dialog over one record (`/admin/<things>/$id`, its edit and delete
 * dialogs): the admin check, the record `params.id` names through `get` (a 404 page saying
 * `notFoundMessage` when there is none, or the segment is not an id), and where the dialog
 * closes to: the list with the tab, search and page the admin came from.
 *
 * @example
 *   const { item: message, closeTo } = await loadAdminItem(args, getContactMessage, 'Message not found', messagesListUrl);
 */
export async function loadAdminItem<T>(
  { request, params }: Pick<LoaderFunctionArgs, 'request' | 'params'>,
  get: (id: number) => Promise<T | null>,
  notFoundMessage: string,
  listUrl: (url: string) => string,
): Promise<{ item: T; closeTo: string }> {
  await requireAdmin(request);
  const item = await findByIdParam(params.id, get);
  if (!item) throw notFound(notFoundMessage);
  return { item, closeTo: listUrl(request.url) };
}
