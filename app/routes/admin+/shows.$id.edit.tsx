import { parseWithZod } from '@conform-to/zod';
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { DialogErrorBoundary } from '~/components/admin/dialog-error-boundary';
import { ShowForm } from '~/components/admin/show-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { findByIdParam, parseId } from '~/models/model-helpers.server';
import { adminPageOfShow, getShow } from '~/models/show.server';
import { catchServerFailure, HTTP_STATUS, notFound } from '~/platform/http-errors.server';
import { readForm } from '~/platform/request-body.server';
import { ShowSchema } from '~/schemas/show';
import { editShow } from '~/services/shows.server';
import { showsListUrl } from '~/utils/admin-urls';
import { pageHref } from '~/utils/page-href';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Edit Show');

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const show = await findByIdParam(params.id, getShow);
  if (!show) throw notFound('Show not found');
  return { show, closeTo: showsListUrl(request.url) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdmin(request);
  const id = parseId(params.id);
  const submission = parseWithZod(await readForm(request), { schema: ShowSchema });
  if (submission.status !== 'success') return data(submission.reply(), { status: 400 });
  return catchServerFailure(
    request,
    'updating a show failed',
    async () => {
      const show = id === null ? null : await editShow(id, submission.value);
      if (!show) {
        return redirectWithToast(showsListUrl(request.url), {
          type: 'error',
          title: 'Failed to update show',
          description: 'Show not found',
        });
      }
      // To the page of the list the show is on now (a new date may have moved it).
      return redirectWithToast(pageHref('/admin/shows', {}, await adminPageOfShow(show)), {
        type: 'success',
        title: 'Show updated',
        description: `${show.title} was updated.`,
      });
    },
    (message) =>
      data(submission.reply({ formErrors: [message] }), {
        status: HTTP_STATUS.internalServerError,
      }),
  );
}

export default function EditShow() {
  const { show, closeTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <RouteDialog title="Edit Show" closeTo={closeTo} size="lg">
      <ShowForm key={show.id} show={show} lastResult={lastResult} closeTo={closeTo} />
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DialogErrorBoundary section="shows" />;
}
