import type { MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';

import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { EmptyState, PageHeader } from '~/components/site/section-heading';
import { listArchivedNewsletters } from '~/models/newsletter.server';
import { seoMeta, seoSite } from '~/utils/seo/seo';
import { formatSiteDate } from '~/utils/time';

export const meta: MetaFunction<typeof loader> = ({ matches, location }) => {
  const site = seoSite(matches);
  return seoMeta({
    ...site,
    title: 'Newsletter archive',
    description: `Every issue of the ${site.siteName} newsletter, to read in the browser.`,
    url: location.pathname,
  });
};

/** The public archive: every issue that was emailed, newest first. */
export async function loader() {
  const issues = await listArchivedNewsletters();
  return {
    issues: issues.map((n) => ({
      slug: n.slug,
      subject: n.subject,
      sentAt: n.sentAt,
      excerpt: n.content.replace(/\s+/g, ' ').trim().slice(0, 180),
    })),
  };
}

export default function NewsletterArchive() {
  const { issues } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader
        title="Newsletter"
        intro="Every issue we have sent, to read in your browser. Sign up on the home page to get the next one."
      />
      <div className="container max-w-3xl py-12">
        {issues.length === 0 ? (
          <EmptyState
            title="No issues yet"
            text="Our first newsletter is on its way. Sign up on the home page to receive it."
          />
        ) : (
          <ol className="space-y-6">
            {issues.map((issue) => (
              <li key={issue.slug} className="rounded-lg border border-border bg-card p-6">
                <h2 className="text-xl font-bold">
                  <Link
                    to={`/newsletter/${issue.slug}`}
                    className="underline-offset-4 hover:underline"
                  >
                    {issue.subject}
                  </Link>
                </h2>
                <p className="mt-1 text-sm text-muted-foreground">
                  <time dateTime={issue.sentAt}>{formatSiteDate(issue.sentAt)}</time>
                </p>
                <p className="mt-3 text-muted-foreground">{issue.excerpt}…</p>
              </li>
            ))}
          </ol>
        )}
        <p className="mt-8">
          <Link to="/#newsletter" className="font-semibold text-primary underline">
            Join the newsletter
          </Link>
        </p>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
