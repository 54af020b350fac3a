import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminApiAction, apiJson, handleApi, readJsonValue, validate } from '~/api/api.server';
import { requireAdminApi } from '~/auth/auth.server';
import { getTheme, saveTheme } from '~/models/theme.server';
import { ThemeSchema } from '~/schemas/theme';
import type { ThemeJSON } from '~/types/entities';

/** Keys a client may leave out of POST: they keep their current value. */
const OPTIONAL_KEYS = ['heroTitle', 'heroText', 'footerText', 'weeklyRotation'] as const;

/** GET /api/admin/theme — the theme settings. */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    await requireAdminApi(request);
    return apiJson(await getTheme());
  });
}

/**
 * POST /api/admin/theme — the whole theme object (primary, variant, appearance, radius,
 * headerFont, bodyFont; heroTitle, heroText, footerText and weeklyRotation optional),
 * validated with the settings form's schema. Answers the saved theme.
 */
export function action({ request }: ActionFunctionArgs) {
  return adminApiAction(request, ['GET', 'POST'], async () => {
    const body = await readJsonValue(request);
    const input = validate(ThemeSchema, body);
    const update: Partial<ThemeJSON> = { ...input };
    const raw = body as Record<string, unknown>;
    for (const key of OPTIONAL_KEYS) if (!(key in raw)) delete update[key];
    return apiJson(await saveTheme(update));
  });
}
