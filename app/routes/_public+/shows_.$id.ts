import { type LoaderFunctionArgs, redirect } from '@remix-run/node';

import { findByIdParam } from '~/models/model-helpers.server';
import { getShow, publicPageOfShow } from '~/models/show.server';
import { notFound } from '~/platform/http-errors.server';
import { pageHref } from '~/utils/page-href';

/**
 * /shows/{id}: a show's ActivityPub id (decision 054). An ActivityPub client gets its `Event`
 * from Fedify before Remix; a browser is sent to the show on /shows, on the page it is listed on.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const show = await findByIdParam(params.id, getShow);
  if (!show) throw notFound('Show not found', { headers: { Vary: 'Accept' } });
  const { when, page } = await publicPageOfShow(show);
  const list = pageHref('/shows', {}, page, when);
  return redirect(`${list}#show-${show.id}`, {
    headers: { Vary: 'Accept', 'Cache-Control': 'public, max-age=0, s-maxage=30' },
  });
}
