import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form, useNavigation } from '@remix-run/react';
import { useState } from 'react';

import { FormFailure } from '~/components/admin/form-alert';
import { usePostPending } from '~/components/admin/use-post-pending';
import { SubmitButton } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { RadioGroup } from '~/components/ui/radio-group';
import { ThemeSchema } from '~/schemas/theme';
import { THEME_APPEARANCES, THEME_VARIANTS, type ThemeJSON } from '~/types/entities';

import { FontSelect } from './font-select';
import { PrimaryColourField } from './primary-colour-field';
import { RadiusField } from './radius-field';
import { SiteTextFields } from './site-text-fields';
import { ThemePreview } from './theme-preview';

const VARIANT_LABELS: Record<ThemeJSON['variant'], string> = {
  professional: 'Professional',
  tint: 'Tint',
  vibrant: 'Vibrant',
};
const APPEARANCE_LABELS: Record<ThemeJSON['appearance'], string> = {
  dark: 'Dark',
  light: 'Light',
  system: 'System',
};

/** The site appearance form: colours, fonts and texts, with a live preview. */
export function SettingsForm({
  theme,
  lastResult,
}: {
  theme: ThemeJSON;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const navigation = useNavigation();
  const pending = usePostPending();
  const [form, fields] = useForm({
    id: 'theme-settings',
    lastResult: navigation.state === 'idle' ? lastResult : null,
    constraint: getZodConstraint(ThemeSchema),
    defaultValue: {
      primary: theme.primary,
      variant: theme.variant,
      appearance: theme.appearance,
      radius: String(theme.radius),
      headerFont: theme.headerFont,
      bodyFont: theme.bodyFont,
      heroTitle: theme.heroTitle,
      heroText: theme.heroText,
      footerText: theme.footerText,
    },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => {
      formData.delete('primaryPicker');
      return parseWithZod(formData, { schema: ThemeSchema });
    },
  });

  // Live preview (JavaScript only; the form itself needs none).
  const [primary, setPrimary] = useState(theme.primary);
  const [radius, setRadius] = useState(theme.radius);
  const [headerFont, setHeaderFont] = useState<string>(theme.headerFont);
  const [bodyFont, setBodyFont] = useState<string>(theme.bodyFont);

  return (
    <section aria-labelledby="settings-heading">
      <h1 id="settings-heading" className="mb-2 font-heading text-3xl font-bold">
        Site Appearance
      </h1>
      <p className="mb-6 text-sm text-muted-foreground">
        Colours, fonts and texts of the public site. Changes apply to every page once saved.
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-6">
        <FormFailure id={form.errorId} title="Failed to update theme" errors={form.errors} />

        <Card
          title="Colors & Theme"
          description="The primary colour, the palette variant and light or dark mode."
        >
          <PrimaryColourField
            field={fields.primary}
            initial={theme.primary}
            onColourChange={setPrimary}
          />
          <RadioGroup
            legend="Variant"
            field={fields.variant}
            options={THEME_VARIANTS}
            labels={VARIANT_LABELS}
          />
          <RadioGroup
            legend="Appearance"
            field={fields.appearance}
            options={THEME_APPEARANCES}
            labels={APPEARANCE_LABELS}
          />
          <RadiusField field={fields.radius} radius={radius} onRadiusChange={setRadius} />
        </Card>

        <Card title="Typography" description="The fonts for headings and for body text.">
          <div className="grid gap-4 sm:grid-cols-2">
            <FontSelect
              label="Header font"
              field={fields.headerFont}
              onFontChange={setHeaderFont}
            />
            <FontSelect label="Body font" field={fields.bodyFont} onFontChange={setBodyFont} />
          </div>
        </Card>

        <Card title="Site Text" description="The home page hero and the footer.">
          <SiteTextFields
            heroTitle={fields.heroTitle}
            heroText={fields.heroText}
            footerText={fields.footerText}
          />
        </Card>

        <ThemePreview
          primary={primary}
          radius={radius}
          headerFont={headerFont}
          bodyFont={bodyFont}
        />

        <div className="flex justify-end">
          <SubmitButton pending={pending} pendingLabel="Saving..." size="lg">
            Save Changes
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}
