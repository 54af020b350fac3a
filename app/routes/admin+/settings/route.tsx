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
import { catchServerFailure, HTTP_STATUS } from '~/platform/http-errors.server';
import { readForm } from '~/platform/request-body.server';
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
    const { doubleOptIn } = submission.value;
    return catchServerFailure(
      request,
      'saving the newsletter settings failed',
      async () => {
        await saveNewsletterSettings({ doubleOptIn });
        return redirectWithToast('/admin/settings', {
          type: 'success',
          title: 'Settings saved',
          description: doubleOptIn
            ? 'New subscribers now confirm their address by email.'
            : 'New subscribers are now added without email confirmation.',
        });
      },
      (description) =>
        redirectWithToast('/admin/settings', {
          type: 'error',
          title: 'Failed to save settings',
          description,
        }),
    );
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
  return catchServerFailure(
    request,
    'saving the theme failed',
    async () => {
      await saveTheme(submission.value);
      return redirectWithToast('/admin/settings', {
        type: 'success',
        title: 'Settings saved',
        description: 'The site appearance was updated.',
      });
    },
    (message) =>
      data(submission.reply({ formErrors: [message] }), {
        status: HTTP_STATUS.internalServerError,
      }),
  );
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
