import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

import { adminApiAction, apiError, apiJson, handleApi, readJsonBody } from '~/api/api.server';
import { requireAdminApi } from '~/auth/auth.server';
import {
  listNewsletters,
  newsletterProgress,
  NoSubscribersError,
} from '~/models/newsletter.server';
import { ComposeNewsletterSchema } from '~/schemas/subscriber';
import { sendNewsletter } from '~/services/mail.server';

/**
 * POST /api/admin/newsletter — JSON `{ subject, content }`: the issue is stored and one copy
 * per active subscriber queued; 202 `{ id, recipients }` (the mail worker sends them; follow
 * with GET /api/admin/newsletter/{id}). 400 for invalid fields or no active subscriber.
 */
export function action({ request }: ActionFunctionArgs) {
  return adminApiAction(request, ['GET', 'POST'], async () => {
    const input = await readJsonBody(request, ComposeNewsletterSchema);
    try {
      const newsletter = await sendNewsletter(input);
      return apiJson({ id: newsletter.id, recipients: newsletter.sentCount }, { status: 202 });
    } catch (error) {
      if (error instanceof NoSubscribersError) return apiError(400, error.message);
      throw error;
    }
  });
}

/** GET /api/admin/newsletter — the issues, newest first, each with its progress. */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async () => {
    await requireAdminApi(request);
    const newsletters = await listNewsletters({ limit: 100 });
    return apiJson(await Promise.all(newsletters.map(newsletterProgress)));
  });
}
