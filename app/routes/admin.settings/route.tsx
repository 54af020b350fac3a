import { parseWithZod } from '@conform-to/zod';
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { getTheme, saveTheme } from '~/models/theme.server';
import { ThemeSchema } from '~/schemas/theme';
import { requireAdmin } from '~/auth/auth.server';
import { resolvePrimary } from '~/utils/theme/colour';
import { redirectWithToast } from '~/auth/toast.server';
import { errorMessage } from '~/utils/error-message';
import { readForm } from '~/server/request-body.server';
import { SettingsForm } from './settings-form';

export const meta: MetaFunction = () => [{ title: 'Site Appearance | Admin | Night Shore' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { theme: await getTheme() };
}

const str = (v: FormDataEntryValue | null) => (typeof v === 'string' ? v : null);

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const current = await getTheme();
  const formData = await readForm(request);
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
    const message = errorMessage(error);
    return data(submission.reply({ formErrors: [message] }), { status: 500 });
  }
  return redirectWithToast('/admin/settings', {
    type: 'success',
    title: 'Settings saved',
    description: 'The site appearance was updated.',
  });
}

export default function AdminSettings() {
  const { theme } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  // Remount with the saved values after a successful save.
  return <SettingsForm key={JSON.stringify(theme)} theme={theme} lastResult={lastResult} />;
}
