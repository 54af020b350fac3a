import type { ActionFunctionArgs } from '@remix-run/node';
import { listTracks } from '~/models/track.server';
import { apiJson, handleApi, methodNotAllowed } from '~/utils/api.server';

/** GET /api/tracks — every track, newest first. */
export const loader = () => handleApi(async () => apiJson(await listTracks()));

export const action = (_args: ActionFunctionArgs) =>
  handleApi(async () => methodNotAllowed(['GET']));
