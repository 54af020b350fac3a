import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { apiJson, handleApi, methodNotAllowed } from '~/api/api.server';
import { playToken } from '~/services/play-token.server';

/**
 * GET /api/plays/token — `{ token }`: the play token the site's player sends with its play
 * reports (services/play-token.server.ts). Bound to the asking client, valid six hours; never
 * stored, never cached, and readable by our own pages only (no CORS header).
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () => apiJson({ token: playToken(request, null) }));
}

export function action({ request }: ActionFunctionArgs) {
  return handleApi(request, async () => methodNotAllowed(['GET']));
}
