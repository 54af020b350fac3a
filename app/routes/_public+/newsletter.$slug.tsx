import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';

import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { PageHeader } from '~/components/site/section-heading';
import { getArchivedNewsletter } from '~/models/newsletter.server';
import { notFound } from '~/platform/http-errors.server';
import { paragraphsOf } from '~/utils/paragraphs';
import { seoMeta, seoSite } from '~/utils/seo/seo';
import { formatSiteDate } from '~/utils/time';

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) =>
  seoMeta({
    ...seoSite(matches),
    title: data?.issue.subject ?? 'Newsletter not found',
    description: data?.issue.content.replace(/\s+/g, ' ').trim().slice(0, 160) ?? '',
    url: location.pathname,
  });

/** One issue as a web page (the "view in browser" link of its email). */
export async function loader({ params }: LoaderFunctionArgs) {
  const issue = await getArchivedNewsletter(params.slug ?? '');
  if (!issue) throw notFound('Newsletter not found');
  return { issue: { subject: issue.subject, content: issue.content, sentAt: issue.sentAt } };
}

export default function NewsletterIssuePage() {
  const { issue } = useLoaderData<typeof loader>();
  const paragraphs = paragraphsOf(issue.content);
  return (
    <>
      <PageHeader title={issue.subject}>
        <p className="text-muted-foreground">
          Newsletter · <time dateTime={issue.sentAt}>{formatSiteDate(issue.sentAt)}</time>
        </p>
      </PageHeader>
      <article className="container max-w-3xl space-y-4 py-12 text-lg leading-relaxed">
        {paragraphs.map((p, i) => (
          <p key={i} className="whitespace-pre-line">
            {p}
          </p>
        ))}
        <p className="pt-6 text-base">
          <Link to="/newsletter" className="font-semibold text-primary underline">
            All issues
          </Link>
        </p>
      </article>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
