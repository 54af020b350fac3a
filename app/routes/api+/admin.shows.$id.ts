import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import {
  adminApiAction,
  adminMethodNotAllowed,
  apiError,
  apiJson,
  noContent,
  readJsonBody,
  requireId,
} from '~/api/api.server';
import { getShow } from '~/models/show.server';
import { ShowSchema } from '~/schemas/show';
import { editShow, removeShow } from '~/services/shows.server';

const ALLOWED = ['PUT', 'DELETE'] as const;

/**
 * PUT /api/admin/shows/{id} — the whole show as JSON; 200 with the show.
 * DELETE /api/admin/shows/{id} — 204. Both 404 for an unknown id.
 */
export function action({ request, params }: ActionFunctionArgs) {
  return adminApiAction(request, ALLOWED, async () => {
    const id = requireId(params.id, 'Show');
    if (request.method.toUpperCase() === 'DELETE') {
      return (await removeShow(id)) ? noContent() : apiError(404, 'Show not found');
    }
    if (!(await getShow(id))) return apiError(404, 'Show not found');
    const input = await readJsonBody(request, ShowSchema);
    const show = await editShow(id, input);
    return show ? apiJson(show) : apiError(404, 'Show not found');
  });
}

export function loader({ request }: LoaderFunctionArgs) {
  return adminMethodNotAllowed(request, ALLOWED);
}
