import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
} from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { getTheme, saveTheme } from '~/models/theme.server';
import { ThemeSchema } from '~/schemas/theme';
import { FONT_CHOICES, THEME_APPEARANCES, THEME_VARIANTS, type ThemeJSON } from '~/types/entities';
import { FormAlert } from '~/components/admin/form-alert';
import { useToastOnce } from '~/components/site/toaster';
import { SubmitButton } from '~/components/ui/button';
import { ErrorList, Field, inputClass } from '~/components/ui/field';
import { requireAdmin } from '~/auth/auth.server';
import { colourToHex, resolvePrimary } from '~/utils/theme/colour';
import { cn } from '~/utils/cn';
import { fontStack } from '~/utils/theme/fonts';
import { parseColour } from '~/utils/theme/theme';
import { redirectWithToast } from '~/auth/toast.server';
import { errorMessage } from '~/utils/error-message';

export const meta: MetaFunction = () => [{ title: 'Site Appearance | Admin | Night Shore' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { theme: await getTheme() };
}

const str = (v: FormDataEntryValue | null) => (typeof v === 'string' ? v : null);

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const current = await getTheme();
  const formData = await request.formData();
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

export default function AdminSettings() {
  const { theme } = useLoaderData<typeof loader>();
  // Remount with the saved values after a successful save.
  return <SettingsForm key={JSON.stringify(theme)} theme={theme} />;
}

function Card({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  const id = title.toLowerCase().replace(/[^a-z]+/g, '-');
  return (
    <section aria-labelledby={id} className="rounded-lg border border-border bg-card p-6">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      <p className="mb-5 mt-1 text-sm text-muted-foreground">{description}</p>
      <div className="space-y-5">{children}</div>
    </section>
  );
}

function RadioGroup<T extends string>({
  legend,
  field,
  options,
  labels,
}: {
  legend: string;
  field: FieldMetadata<T>;
  options: readonly T[];
  labels: Record<T, string>;
}) {
  const errorId = `${field.id}-error`;
  return (
    <fieldset aria-describedby={field.errors?.length ? errorId : undefined}>
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((value) => (
          <label
            key={value}
            className={cn(
              'flex cursor-pointer items-center gap-2 rounded-md border border-input px-3 py-2 text-sm',
              'has-[:checked]:border-primary has-[:checked]:bg-primary/10',
              'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
            )}
          >
            <input
              {...getInputProps(field, { type: 'radio', value })}
              key={`${field.key}-${value}`}
              className="accent-primary"
            />
            {labels[value]}
          </label>
        ))}
      </div>
      <ErrorList id={errorId} errors={field.errors} />
    </fieldset>
  );
}

function SettingsForm({ theme }: { theme: ThemeJSON }) {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending =
    navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';
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

  useToastOnce(
    form.errors?.length
      ? { type: 'error', title: 'Failed to update theme', description: form.errors.join(' ') }
      : null,
  );

  // Live preview (JavaScript only; the form itself needs none).
  const [primary, setPrimary] = useState(theme.primary);
  const [picker, setPicker] = useState(colourToHex(theme.primary));
  const [radius, setRadius] = useState(theme.radius);
  const [headerFont, setHeaderFont] = useState<string>(theme.headerFont);
  const [bodyFont, setBodyFont] = useState<string>(theme.bodyFont);
  const p = parseColour(primary);
  const previewColour = `hsl(${p.h} ${p.s}% ${p.l}%)`;

  return (
    <section aria-labelledby="settings-heading">
      <h1 id="settings-heading" className="mb-2 font-heading text-3xl font-bold">
        Site Appearance
      </h1>
      <p className="mb-6 text-sm text-muted-foreground">
        Colours, fonts and texts of the public site. Changes apply to every page once saved.
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-6">
        <FormAlert id={form.errorId} title="Failed to update theme" errors={form.errors} />

        <Card
          title="Colors & Theme"
          description="The primary colour, the palette variant and light or dark mode."
        >
          <div className="grid gap-4 sm:grid-cols-[auto_1fr] sm:items-start">
            <div className="space-y-1.5">
              <label htmlFor="primary-picker" className="block text-sm font-medium">
                Colour picker
              </label>
              <input
                id="primary-picker"
                type="color"
                name="primaryPicker"
                value={picker}
                onChange={(event) => {
                  const hex = event.currentTarget.value;
                  setPicker(hex);
                  setPrimary(hex);
                  const text = event.currentTarget.form?.elements.namedItem('primary');
                  if (text instanceof HTMLInputElement) text.value = hex;
                }}
                className="h-10 w-16 cursor-pointer rounded-md border border-input bg-background p-1 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              />
            </div>
            <Field
              label="Primary colour"
              hint="An hsl() value such as hsl(347, 100%, 56%) or a hex colour such as #ff1f4f."
              errors={fields.primary.errors}
              id={fields.primary.id}
            >
              {(a11y) => (
                <input
                  {...getInputProps(fields.primary, { type: 'text' })}
                  {...a11y}
                  key={fields.primary.key}
                  pattern={undefined}
                  spellCheck={false}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setPrimary(value);
                    if (/^(hsl\(.*\)|#[0-9a-f]{3}([0-9a-f]{3})?)$/i.test(value.trim())) {
                      setPicker(colourToHex(value));
                    }
                  }}
                  className={cn(inputClass, 'font-mono')}
                />
              )}
            </Field>
          </div>
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
          <div className="space-y-1.5">
            <div className="flex items-baseline justify-between">
              <label htmlFor={fields.radius.id} className="block text-sm font-medium">
                Corner radius
              </label>
              <output
                htmlFor={fields.radius.id}
                className="text-sm tabular-nums text-muted-foreground"
              >
                {radius.toFixed(1)} rem
              </output>
            </div>
            <input
              {...getInputProps(fields.radius, { type: 'range' })}
              key={fields.radius.key}
              min={0}
              max={2}
              step={0.1}
              list="radius-marks"
              aria-describedby={`${fields.radius.id}-labels`}
              onChange={(event) => setRadius(Number(event.currentTarget.value))}
              className="w-full accent-primary"
            />
            <datalist id="radius-marks">
              <option value="0" label="Square" />
              <option value="1" label="Rounded" />
              <option value="2" label="Pill" />
            </datalist>
            <div
              id={`${fields.radius.id}-labels`}
              className="flex justify-between text-xs text-muted-foreground"
            >
              <span>Square</span>
              <span>Rounded</span>
              <span>Pill</span>
            </div>
            <ErrorList id={`${fields.radius.id}-error`} errors={fields.radius.errors} />
          </div>
        </Card>

        <Card title="Typography" description="The fonts for headings and for body text.">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Header font" errors={fields.headerFont.errors} id={fields.headerFont.id}>
              {(a11y) => (
                <select
                  {...getSelectProps(fields.headerFont)}
                  {...a11y}
                  key={fields.headerFont.key}
                  onChange={(event) => setHeaderFont(event.currentTarget.value)}
                  className={inputClass}
                >
                  {FONT_CHOICES.map((font) => (
                    <option key={font} value={font}>
                      {font}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Body font" errors={fields.bodyFont.errors} id={fields.bodyFont.id}>
              {(a11y) => (
                <select
                  {...getSelectProps(fields.bodyFont)}
                  {...a11y}
                  key={fields.bodyFont.key}
                  onChange={(event) => setBodyFont(event.currentTarget.value)}
                  className={inputClass}
                >
                  {FONT_CHOICES.map((font) => (
                    <option key={font} value={font}>
                      {font}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        </Card>

        <Card title="Site Text" description="The home page hero and the footer.">
          <Field label="Hero title" errors={fields.heroTitle.errors} id={fields.heroTitle.id}>
            {(a11y) => (
              <input
                {...getInputProps(fields.heroTitle, { type: 'text' })}
                {...a11y}
                key={fields.heroTitle.key}
                className={inputClass}
              />
            )}
          </Field>
          <Field label="Hero text" errors={fields.heroText.errors} id={fields.heroText.id}>
            {(a11y) => (
              <textarea
                {...getTextareaProps(fields.heroText)}
                {...a11y}
                key={fields.heroText.key}
                rows={3}
                className={inputClass}
              />
            )}
          </Field>
          <Field label="Footer text" errors={fields.footerText.errors} id={fields.footerText.id}>
            {(a11y) => (
              <textarea
                {...getTextareaProps(fields.footerText)}
                {...a11y}
                key={fields.footerText.key}
                rows={3}
                className={inputClass}
              />
            )}
          </Field>
        </Card>

        <section aria-label="Preview" className="rounded-lg border border-border bg-card p-6">
          <p className="text-sm font-medium text-muted-foreground">Preview</p>
          <p className="mt-2 text-2xl font-bold" style={{ fontFamily: fontStack(headerFont) }}>
            Heading in {headerFont}
          </p>
          <p className="mt-1 text-sm" style={{ fontFamily: fontStack(bodyFont) }}>
            Body text in {bodyFont}. Fonts other than the saved ones show in a fallback until saved.
          </p>
          <span
            className="mt-3 inline-block px-4 py-2 text-sm font-semibold"
            style={{
              backgroundColor: previewColour,
              color: p.l > 60 ? '#0a0a0a' : '#ffffff',
              borderRadius: `${radius}rem`,
            }}
          >
            Primary button
          </span>
        </section>

        <div className="flex justify-end">
          <SubmitButton pending={pending} pendingLabel="Saving..." size="lg">
            Save Changes
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}
