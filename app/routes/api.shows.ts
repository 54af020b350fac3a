import type { ActionFunctionArgs } from '@remix-run/node';
import { listShows } from '~/models/show.server';
import { apiJson, handleApi, methodNotAllowed } from '~/utils/api.server';

/** GET /api/shows — every show, ascending by date then time. */
export const loader = () => handleApi(async () => apiJson(await listShows()));

export const action = (_args: ActionFunctionArgs) =>
  handleApi(async () => methodNotAllowed(['GET']));
