import type { ActionFunctionArgs } from '@remix-run/node';
import { getTheme } from '~/models/theme.server';
import { apiJson, handleApi, methodNotAllowed } from '~/utils/api.server';

/** GET /api/theme — the site's theme settings. */
export const loader = () => handleApi(async () => apiJson(await getTheme()));

export const action = (_args: ActionFunctionArgs) =>
  handleApi(async () => methodNotAllowed(['GET']));
