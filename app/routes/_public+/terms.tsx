import type { MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';

import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { LegalPage } from '~/components/site/legal-page';
import { useRootData, useSiteName } from '~/document/use-root-data';
import { pageTitle, seoSite } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => [
  pageTitle(matches, 'Terms of Service'),
  { name: 'description', content: `The terms for using the ${seoSite(matches).siteName} website.` },
];

export default function TermsPage() {
  const name = useSiteName();
  const email = useRootData()?.site.contactEmail ?? '';
  return (
    <LegalPage title="Terms of Service" updated="January 2026">
      <section>
        <h2>Using this site</h2>
        <p>
          By using this website you agree to these terms. The site is provided by {name} for fans to
          listen to our music, read our news and get in touch. Please use it lawfully and don’t try
          to disrupt it, break its security or send automated or abusive messages.
        </p>
      </section>
      <section>
        <h2>Our music and content</h2>
        <p>
          All music, artwork, photos and texts on this site belong to {name} or to the artists who
          made them. You may stream tracks here and download them for your own personal listening.
          Any other use, such as public performance, broadcast, resale, sampling or use in other
          works, needs our written permission: ask through the{' '}
          <Link to="/contact">contact form</Link>.
        </p>
      </section>
      <section>
        <h2>Accounts</h2>
        <p>
          If you register, keep your password to yourself and tell us if you think someone else has
          used your account. We may suspend accounts that break these terms.
        </p>
      </section>
      <section>
        <h2>Newsletter and messages</h2>
        <p>
          Subscribing means you agree to receive our newsletter; you can stop at any time. What we
          do with your details is described in our <Link to="/privacy">Privacy Policy</Link>.
        </p>
      </section>
      <section>
        <h2>Shows and tickets</h2>
        <p>
          Show dates and details can change. Tickets are sold by the venues and ticket sellers we
          link to, under their own terms; we are not responsible for their sales or refunds.
        </p>
      </section>
      <section>
        <h2>No warranty</h2>
        <p>
          We do our best to keep the site available and accurate, but it is provided as is. To the
          extent the law allows, we are not liable for losses caused by using it.
        </p>
      </section>
      <section>
        <h2>Contact</h2>
        <p>
          Questions about these terms: <a href={`mailto:${email}`}>{email}</a>.
        </p>
      </section>
    </LegalPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
