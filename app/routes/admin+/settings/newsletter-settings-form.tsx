import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form, useNavigation } from '@remix-run/react';

import { SubmitButton } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { NewsletterSettingsSchema } from '~/schemas/subscriber';

export const NEWSLETTER_SETTINGS_INTENT = 'newsletter-settings';

/** Whether a sign-up must be confirmed by email (double opt-in); off by default. */
export function NewsletterSettingsForm({ doubleOptIn }: { doubleOptIn: boolean }) {
  const navigation = useNavigation();
  const pending = navigation.formData?.get('intent') === NEWSLETTER_SETTINGS_INTENT;
  const [form, fields] = useForm({
    id: 'newsletter-settings',
    constraint: getZodConstraint(NewsletterSettingsSchema),
    defaultValue: { doubleOptIn: doubleOptIn ? 'on' : undefined },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NewsletterSettingsSchema }),
  });
  return (
    <Card
      title="Newsletter sign-ups"
      description="With confirmation on, a new subscriber gets an email with a link and receives nothing until they follow it (double opt-in)."
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value={NEWSLETTER_SETTINGS_INTENT} />
        <div className="flex items-start gap-3">
          <input
            {...getInputProps(fields.doubleOptIn, { type: 'checkbox' })}
            key={fields.doubleOptIn.key}
            className="mt-1 h-4 w-4 accent-primary"
          />
          <label htmlFor={fields.doubleOptIn.id} className="text-sm">
            Ask new subscribers to confirm their address by email
          </label>
        </div>
        <div className="flex justify-end">
          <SubmitButton pending={pending} pendingLabel="Saving...">
            Save sign-up setting
          </SubmitButton>
        </div>
      </Form>
    </Card>
  );
}
