import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
} from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useNavigation, useSearchParams } from '@remix-run/react';

import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { Honeypot } from '~/components/site/honeypot';
import { CheckCircle2, Clock, ExternalLink, Mail, MapPin, Phone } from '~/components/site/icons';
import { isPublicFormActionData } from '~/components/site/public-form-types';
import { PageHeader } from '~/components/site/section-heading';
import { useToastOnce } from '~/components/site/toaster';
import { IntentSubmitButton } from '~/components/ui/button';
import { FormError, InputField, SelectField, TextareaField } from '~/components/ui/field';
import { NewTabLink } from '~/components/ui/new-tab-link';
import { useRootData } from '~/document/use-root-data';
import { badRequest } from '~/platform/http-errors.server';
import { retryAfterFromAction } from '~/platform/rate-limit.server';
import { readForm } from '~/platform/request-body.server';
import { CONTACT_INTENT, ContactSchema } from '~/schemas/contact';
import { contactAction } from '~/services/public-forms.server';
import { CONTACT_SUBJECTS } from '~/types/entities';
import { seoMeta, seoSite } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches, location }) => {
  const site = seoSite(matches);
  return seoMeta({
    ...site,
    title: 'Contact',
    description: `Bookings, press, collaborations and questions: get in touch with ${site.siteName}.`,
    url: location.pathname,
  });
};

/** A 429 of the action keeps its Retry-After on the page's answer. */
export const headers = retryAfterFromAction;

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  if (formData.get('intent') === CONTACT_INTENT)
    return contactAction(formData, '/contact', request);
  throw badRequest();
}

/** OpenStreetMap search for an address (no third-party request until the visitor clicks). */
function mapsUrl(address: string): string {
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}`;
}

const FAQ = [
  {
    q: 'Do you play private events?',
    a: 'Yes. We play weddings, private parties and corporate events on the Shore and beyond, as a DJ set or a full live show. Send a Booking Inquiry with the date, venue and expected crowd.',
  },
  {
    q: 'Can I license your music?',
    a: 'Most of our catalogue is available for film, TV, games and online content. Choose Collaboration or General Question and tell us about the project and the intended use.',
  },
  {
    q: 'Do you offer studio or production services?',
    a: 'Our studio takes on a limited number of production, mixing and remix projects each season. Tell us about your track and your timeline.',
  },
  {
    q: 'Where can I find press materials?',
    a: 'Send a Media Request and we will reply with our press kit: bio, high-resolution photos, logos and technical rider.',
  },
];

function ContactForm() {
  const navigation = useNavigation();
  const raw = useActionData<typeof action>();
  const actionData = isPublicFormActionData(raw) && raw.intent === CONTACT_INTENT ? raw : undefined;
  const [form, fields] = useForm({
    id: 'contact',
    lastResult: navigation.state === 'idle' ? actionData?.result : null,
    constraint: getZodConstraint(ContactSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: { subject: 'Booking Inquiry' },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ContactSchema }),
  });
  useToastOnce(navigation.state === 'idle' ? actionData?.toast : null);

  return (
    <Form
      method="post"
      {...getFormProps(form)}
      aria-labelledby="contact-form-title"
      className="relative space-y-5"
    >
      <Honeypot />
      <FormError errors={form.errors} id={form.errorId} />
      <div className="grid gap-5 sm:grid-cols-2">
        <InputField
          label="Name"
          field={fields.name}
          inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'name' }}
        />
        <InputField
          label="Email"
          field={fields.email}
          inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }}
        />
      </div>
      <SelectField
        label="Subject"
        field={fields.subject}
        selectProps={getSelectProps(fields.subject)}
      >
        {CONTACT_SUBJECTS.map((subject) => (
          <option key={subject} value={subject}>
            {subject}
          </option>
        ))}
      </SelectField>
      <TextareaField
        label="Message"
        field={fields.message}
        textareaProps={{ ...getTextareaProps(fields.message), rows: 6 }}
      />
      <IntentSubmitButton intent={CONTACT_INTENT} pendingLabel="Sending..." size="lg">
        Send Message
      </IntentSubmitButton>
    </Form>
  );
}

export default function ContactPage() {
  const root = useRootData();
  const [searchParams] = useSearchParams();
  const sent = searchParams.get('sent') === '1';
  const site = root?.site;
  const address = site?.contactAddress ?? '';
  return (
    <>
      <PageHeader
        title="Contact"
        intro="Bookings, press, collaborations or just a hello: we read every message."
      />
      <div className="container grid gap-10 py-12 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <section
          aria-labelledby="contact-form-title"
          className="rounded-lg border border-border bg-card p-6 md:p-8"
        >
          <h2 id="contact-form-title" className="mb-6 text-2xl font-bold">
            Send us a message
          </h2>
          {sent ? (
            <div
              role="status"
              data-testid="contact-thank-you"
              className="flex flex-col items-start gap-3"
            >
              <CheckCircle2 aria-hidden="true" className="h-8 w-8 text-primary" />
              <p className="text-lg font-bold">Thank you for your message!</p>
              <p className="text-muted-foreground">
                We’ll get back to you as soon as possible, usually within two working days.
              </p>
              <Link to="/contact" className="font-semibold text-primary hover:underline">
                Send another message
              </Link>
            </div>
          ) : (
            <ContactForm />
          )}
        </section>

        <aside aria-labelledby="contact-info-title" className="space-y-6">
          <section className="rounded-lg border border-border bg-card p-6">
            <h2 id="contact-info-title" className="mb-4 text-xl font-bold">
              Contact information
            </h2>
            <ul className="space-y-4">
              <li className="flex gap-3">
                <MapPin aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-primary" />
                <div>
                  <address className="not-italic">{address}</address>
                  <NewTabLink
                    href={mapsUrl(address)}
                    className="mt-1 inline-flex min-h-6 items-center gap-1 text-sm font-semibold text-primary hover:underline"
                  >
                    Open in maps
                    <ExternalLink aria-hidden="true" className="h-3.5 w-3.5" />
                    <span className="sr-only"> (OpenStreetMap, opens in a new tab)</span>
                  </NewTabLink>
                </div>
              </li>
              <li className="flex gap-3">
                <Mail aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-primary" />
                <a href={`mailto:${site?.contactEmail ?? ''}`} className="hover:text-primary">
                  {site?.contactEmail}
                </a>
              </li>
              <li className="flex gap-3">
                <Phone aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-primary" />
                <a
                  href={`tel:${(site?.contactPhone ?? '').replace(/[^\d+]/g, '')}`}
                  className="hover:text-primary"
                >
                  {site?.contactPhone}
                </a>
              </li>
              <li className="flex gap-3">
                <Clock aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-primary" />
                <span>Mon-Fri 10am-6pm EST</span>
              </li>
            </ul>
          </section>
          <section
            aria-labelledby="faq-title"
            className="rounded-lg border border-border bg-card p-6"
          >
            <h2 id="faq-title" className="mb-4 text-xl font-bold">
              Frequently asked questions
            </h2>
            <div className="divide-y divide-border">
              {FAQ.map((item) => (
                <details key={item.q} className="group py-3">
                  <summary className="flex min-h-6 cursor-pointer list-none items-center justify-between gap-2 font-semibold [&::-webkit-details-marker]:hidden">
                    {item.q}
                    <span
                      aria-hidden="true"
                      className="text-primary transition-transform group-open:rotate-45"
                    >
                      +
                    </span>
                  </summary>
                  <p className="mt-2 text-sm text-muted-foreground">{item.a}</p>
                </details>
              ))}
            </div>
          </section>
        </aside>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
