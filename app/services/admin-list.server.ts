import { requireAdmin } from '~/auth/auth.server';
import type { NumberedPage } from '~/models/paging.server';
import { pageParam } from '~/utils/page-href';

/**
 * The loader of a plain paged admin list (issue 37): the admin's check, the page the URL asks
 * for (`?page=N`) of `perPage` items, and the list's URL (`listUrl`, e.g. `showsListUrl`) that
 * its links to dialogs keep. The route names the items:
 *
 *   const { items, ...paging } = await loadAdminList(request, pageShows, PER_PAGE, showsListUrl);
 *   return { shows: items, ...paging };
 */
export async function loadAdminList<T>(
  request: Request,
  load: (options: { page: number; perPage: number }) => Promise<NumberedPage<T>>,
  perPage: number,
  listUrl: (url: string) => string,
) {
  await requireAdmin(request);
  const list = await load({ page: pageParam(new URL(request.url).searchParams), perPage });
  return {
    items: list.items,
    page: list.page,
    pageCount: list.pageCount,
    listUrl: listUrl(request.url),
  };
}
