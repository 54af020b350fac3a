import { parseWithZod } from '@conform-to/zod';
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { ShowForm } from '~/components/admin/show-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { adminPageOfShow } from '~/models/show.server';
import { catchServerFailure, HTTP_STATUS } from '~/platform/http-errors.server';
import { readForm } from '~/platform/request-body.server';
import { ShowSchema } from '~/schemas/show';
import { addShow } from '~/services/shows.server';
import { pageHref } from '~/utils/page-href';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Add New Show');

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const submission = parseWithZod(await readForm(request), { schema: ShowSchema });
  if (submission.status !== 'success') return data(submission.reply(), { status: 400 });
  return catchServerFailure(
    request,
    'creating a show failed',
    async () => {
      const show = await addShow(submission.value);
      // To the page of the list the new show is on.
      return redirectWithToast(pageHref('/admin/shows', {}, await adminPageOfShow(show)), {
        type: 'success',
        title: 'Show created',
        description: `${show.title} was added.`,
      });
    },
    (message) =>
      data(submission.reply({ formErrors: [message] }), {
        status: HTTP_STATUS.internalServerError,
      }),
  );
}

export default function NewShow() {
  const lastResult = useActionData<typeof action>();
  return (
    <RouteDialog title="Add New Show" closeTo="/admin/shows" size="lg">
      <ShowForm lastResult={lastResult} closeTo="/admin/shows" />
    </RouteDialog>
  );
}
