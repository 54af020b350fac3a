import { parseWithZod } from '@conform-to/zod';
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';

import { logoutHeaders, requireUser } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { PasswordField } from '~/components/site/password-field';
import { SubmitButton } from '~/components/ui/button';
import { RouteDialog } from '~/components/ui/route-dialog';
import { SchemaForm, useSchemaForm } from '~/components/ui/schema-form';
import { retryAfterFromAction } from '~/platform/rate-limit.server';
import { readForm } from '~/platform/request-body.server';
import { DeleteAccountSchema } from '~/schemas/account';
import { AdminAccountError, confirmOwnPassword, deleteAccount } from '~/services/accounts.server';
import { pageTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => [pageTitle(matches, 'Delete my account')];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { isAdmin: user.isAdmin };
}

/** A 429 of the action keeps its Retry-After on the page's answer. */
export const headers = retryAfterFromAction;

/**
 * Delete the account (decision 019): the password must be right (counted like a login
 * attempt); then the guest-list spots, favourites, sessions and the user are removed, this
 * browser's session cookie is cleared, and the visitor lands on the home page.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: DeleteAccountSchema });
  const hideFields = ['password'];
  if (submission.status !== 'success') {
    return data(submission.reply({ hideFields }), { status: 400 });
  }
  if (user.isAdmin) {
    return data(submission.reply({ formErrors: [new AdminAccountError().message], hideFields }), {
      status: 403,
    });
  }
  const check = await confirmOwnPassword(request, user.username, submission.value.password);
  if (check.result === 'too-many') {
    return data(submission.reply({ formErrors: [check.message], hideFields }), {
      status: 429,
      headers: check.headers,
    });
  }
  if (check.result === 'incorrect') {
    return data(
      submission.reply({ fieldErrors: { password: ['Password is incorrect'] }, hideFields }),
      { status: 400 },
    );
  }
  const headers = await logoutHeaders(request);
  await deleteAccount(user);
  return redirectWithToast(
    '/',
    {
      type: 'success',
      title: 'Account deleted',
      description: 'Your account, favourites and guest-list spots were deleted.',
    },
    { headers },
  );
}

export default function DeleteAccount() {
  const { isAdmin } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  // "Password is incorrect" clears while typing (useSchemaForm says why not on blur).
  const [form, fields] = useSchemaForm('delete-account', DeleteAccountSchema, lastResult);
  return (
    <RouteDialog
      title="Delete my account"
      closeTo="/account"
      description={
        isAdmin
          ? 'Administrator accounts cannot be deleted here. Ask another administrator.'
          : 'This deletes your account, your favourites and your guest-list spots, and logs you out. It cannot be undone.'
      }
    >
      {isAdmin ? null : (
        <SchemaForm form={form} className="space-y-4">
          <PasswordField label="Your password" field={fields.password} />
          <SubmitButton
            variant="destructive"
            pending={navigation.state === 'submitting'}
            pendingLabel="Deleting..."
            className="w-full"
          >
            Delete my account
          </SubmitButton>
        </SchemaForm>
      )}
    </RouteDialog>
  );
}
