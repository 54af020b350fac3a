import type { LoaderFunctionArgs } from '@remix-run/node';

import { embedResponse } from '~/embed/page.server';
import { parseId } from '~/models/model-helpers.server';
import { getTrack } from '~/models/track.server';

/**
 * GET /embed/tracks/{id}[?theme=light|dark&t=1h02m30s] — the embeddable player of one track
 * (decision 038): a resource route answering its own small HTML, not a page of the site.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = parseId(params.id);
  const track = id === null ? null : await getTrack(id);
  return embedResponse(request, track ? [track] : [], { list: false });
}
