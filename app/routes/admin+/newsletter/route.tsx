import { parseWithZod } from '@conform-to/zod';
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { AdminPage } from '~/components/admin/admin-page';
import { Send } from '~/components/admin/icons';
import { TabLinks } from '~/components/admin/tab-links';
import { Button, buttonClass } from '~/components/ui/button';
import { deliveryDescription } from '~/mail/transport.server';
import {
  listNewsletters,
  newsletterProgress,
  NoSubscribersError,
} from '~/models/newsletter.server';
import { countSubscribers } from '~/models/subscriber.server';
import { catchServerFailure, HTTP_STATUS } from '~/platform/http-errors.server';
import { readForm } from '~/platform/request-body.server';
import { ComposeNewsletterSchema } from '~/schemas/subscriber';
import { sendNewsletter } from '~/services/mail.server';
import { pageParam } from '~/utils/page-href';
import { adminTitle } from '~/utils/seo/seo';

import { ComposeTab } from './compose-tab';
import { plural } from './plural';
import { loadSubscribersTab, subscriberQueryOf } from './subscribers.server';
import { SubscribersTab } from './subscribers-tab';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Newsletter');

type Tab = 'subscribers' | 'compose';
const tabOf = (url: URL): Tab =>
  url.searchParams.get('tab') === 'compose' ? 'compose' : 'subscribers';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const tab = tabOf(url);
  const { q, status } = subscriberQueryOf(url.searchParams);
  const [subscribers, composeTotal, newsletters] = await Promise.all([
    tab === 'subscribers'
      ? loadSubscribersTab({ q, status, page: pageParam(url.searchParams) })
      : null,
    tab === 'compose' ? countSubscribers('active') : null,
    tab === 'compose'
      ? listNewsletters({ limit: 50 }).then((list) =>
          Promise.all(list.map(async (n) => ({ ...n, progress: await newsletterProgress(n) }))),
        )
      : [],
  ]);
  return {
    tab,
    q,
    status,
    subscribers,
    totalActive: subscribers?.totalActive ?? composeTotal ?? 0,
    newsletters,
    delivery: deliveryDescription().text,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: ComposeNewsletterSchema });
  if (submission.status !== 'success') {
    return data({ result: submission.reply(), failureTitle: null }, { status: 400 });
  }
  return catchServerFailure(
    request,
    'sending a newsletter failed',
    async () => {
      try {
        const newsletter = await sendNewsletter(submission.value);
        return redirectWithToast('/admin/newsletter?tab=compose', {
          type: 'success',
          title: 'Newsletter queued',
          description: `Queued for ${plural(newsletter.sentCount, 'subscriber', 'subscribers')}. Its progress shows below.`,
        });
      } catch (error) {
        if (!(error instanceof NoSubscribersError)) throw error;
        return data(
          {
            result: submission.reply({ formErrors: [error.message] }),
            failureTitle: 'No subscribers',
          },
          { status: 400 },
        );
      }
    },
    (message) =>
      data(
        {
          result: submission.reply({ formErrors: [message] }),
          failureTitle: 'Failed to send newsletter',
        },
        { status: HTTP_STATUS.internalServerError },
      ),
  );
}

export default function AdminNewsletter() {
  const { tab, q, status, subscribers, totalActive, newsletters, delivery } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <AdminPage
      headingId="newsletter-heading"
      title="Newsletter"
      actions={
        tab === 'subscribers' ? (
          totalActive === 0 ? (
            <Button disabled title="There are no active subscribers yet">
              <Send aria-hidden="true" className="h-4 w-4" />
              Compose Newsletter
            </Button>
          ) : (
            <Link to="?tab=compose" className={buttonClass('primary')}>
              <Send aria-hidden="true" className="h-4 w-4" />
              Compose Newsletter
            </Link>
          )
        ) : null
      }
    >
      <TabLinks
        label="Newsletter sections"
        tabs={[
          { to: '/admin/newsletter', label: 'Subscribers', current: tab === 'subscribers' },
          {
            to: '/admin/newsletter?tab=compose',
            label: 'Compose Newsletter',
            current: tab === 'compose',
          },
        ]}
      />
      {tab === 'subscribers' && subscribers ? (
        <SubscribersTab q={q} status={status} data={subscribers} />
      ) : (
        // A new newsletter remounts the form, so it is empty again after success.
        <ComposeTab
          key={newsletters[0]?.id ?? 'none'}
          total={totalActive}
          delivery={delivery}
          newsletters={newsletters}
          actionData={actionData}
        />
      )}
    </AdminPage>
  );
}
