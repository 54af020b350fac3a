import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { listTracks } from '~/models/track.server';
import { apiJson, handleApi, methodNotAllowed } from '~/api/api.server';
import { publicCacheHeaders } from '~/document/cache-headers.server';

/** GET /api/tracks — every track, newest first. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(request, async () =>
    apiJson(await listTracks(), { headers: publicCacheHeaders(request) }),
  );

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(request, async () => methodNotAllowed(['GET']));
