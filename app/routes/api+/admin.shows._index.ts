import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminApiAction, adminMethodNotAllowed, apiJson, readJsonBody } from '~/api/api.server';
import { ShowSchema } from '~/schemas/show';
import { addShow } from '~/services/shows.server';

/** POST /api/admin/shows — JSON show; 201 with the created show. */
export function action({ request }: ActionFunctionArgs) {
  return adminApiAction(request, ['POST'], async () => {
    const input = await readJsonBody(request, ShowSchema);
    return apiJson(await addShow(input), { status: 201 });
  });
}

export function loader({ request }: LoaderFunctionArgs) {
  return adminMethodNotAllowed(request, ['POST']);
}
