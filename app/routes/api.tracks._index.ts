import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiJson, handleApi, methodNotAllowed } from '~/api/api.server';
import { getViewer } from '~/auth/auth.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';
import { listTracksFor } from '~/models/track.server';

/**
 * GET /api/tracks — every track, newest first. Members-only tracks are listed for everyone;
 * without a logged-in session they come with `"locked": true` and no `audioFile`.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () =>
    apiJson(await listTracksFor(await getViewer(request)), {
      headers: publicCacheHeaders(request),
    }),
  );

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => methodNotAllowed(['GET']));
