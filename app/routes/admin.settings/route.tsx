import { parseWithZod } from '@conform-to/zod';
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { getNewsletterSettings, saveNewsletterSettings } from '~/models/newsletter-settings.server';
import { getTheme, saveTheme } from '~/models/theme.server';
import { HTTP_STATUS, SERVER_FAILURE_MESSAGE } from '~/platform/http-errors.server';
import { readForm } from '~/platform/request-body.server';
import { logError } from '~/platform/request-tracking.server';
import { NewsletterSettingsSchema } from '~/schemas/subscriber';
import { ThemeSchema } from '~/schemas/theme';
import { resolvePrimary } from '~/theme/colour';
import { adminTitle } from '~/utils/seo/seo';

import { NEWSLETTER_SETTINGS_INTENT, NewsletterSettingsForm } from './newsletter-settings-form';
import { SettingsForm } from './settings-form';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Site Appearance');

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [theme, newsletter] = await Promise.all([getTheme(), getNewsletterSettings()]);
  return { theme, newsletter };
}

const str = (v: FormDataEntryValue | null) => (typeof v === 'string' ? v : null);

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const formData = await readForm(request);
  if (formData.get('intent') === NEWSLETTER_SETTINGS_INTENT) {
    const submission = parseWithZod(formData, { schema: NewsletterSettingsSchema });
    if (submission.status !== 'success') return data(submission.reply(), { status: 400 });
    await saveNewsletterSettings(submission.value);
    return redirectWithToast('/admin/settings', {
      type: 'success',
      title: 'Settings saved',
      description: submission.value.doubleOptIn
        ? 'New subscribers now confirm their address by email.'
        : 'New subscribers are now added without email confirmation.',
    });
  }
  const current = await getTheme();
  formData.set(
    'primary',
    resolvePrimary({
      text: str(formData.get('primary')),
      picker: str(formData.get('primaryPicker')),
      current: current.primary,
    }),
  );
  formData.delete('primaryPicker');
  // Weekly rotation is set on the tracks screen; this form keeps it as stored.
  formData.set('weeklyRotation', String(current.weeklyRotation));
  const submission = parseWithZod(formData, { schema: ThemeSchema });
  if (submission.status !== 'success') return data(submission.reply(), { status: 400 });
  try {
    await saveTheme(submission.value);
  } catch (error) {
    // Logged with the request id; the admin is told it failed, not the exception's text.
    logError(error, request, 'saving the theme failed');
    return data(submission.reply({ formErrors: [SERVER_FAILURE_MESSAGE] }), {
      status: HTTP_STATUS.internalServerError,
    });
  }
  return redirectWithToast('/admin/settings', {
    type: 'success',
    title: 'Settings saved',
    description: 'The site appearance was updated.',
  });
}

export default function AdminSettings() {
  const { theme, newsletter } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  // Remount with the saved values after a successful save.
  return (
    <div className="space-y-8">
      <SettingsForm key={JSON.stringify(theme)} theme={theme} lastResult={lastResult} />
      <NewsletterSettingsForm
        key={String(newsletter.doubleOptIn)}
        doubleOptIn={newsletter.doubleOptIn}
      />
    </div>
  );
}
