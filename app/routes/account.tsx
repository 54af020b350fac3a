import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, Outlet, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { buttonClass, SubmitButton } from '~/components/ui/button';
import { PasswordField } from '~/components/site/password-field';
import { FormError } from '~/components/ui/field';
import { setPassword, verifyLogin } from '~/models/user.server';
import { ChangePasswordSchema } from '~/schemas/account';
import { createUserSession, deleteSessionsOfUser, requireUser } from '~/auth/auth.server';
import {
  consumeRateLimit,
  resetLoginLimit,
  retryAfterFromAction,
  retryAfterHeaders,
} from '~/server/rate-limit.server';
import { redirectWithToast } from '~/auth/toast.server';
import { readForm } from '~/server/request-body.server';

export const meta: MetaFunction = () => [{ title: 'Account | Night Shore' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { username: user.username };
}

const hideFields = ['currentPassword', 'newPassword', 'confirmPassword'];

/** A 429 of the action keeps its Retry-After on the page's answer. */
export const headers = retryAfterFromAction;

/**
 * Change the password: the current one must be right (counted like a login attempt,
 * so this form cannot be used to guess it). Every session of the user ends, this one
 * included, and a fresh session is issued to this browser.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: ChangePasswordSchema });
  if (submission.status !== 'success') {
    return data(submission.reply({ hideFields }), { status: 400 });
  }
  const limit = await consumeRateLimit('login', request, { username: user.username });
  if (!limit.ok) {
    return data(submission.reply({ formErrors: [limit.message], hideFields }), {
      status: 429,
      headers: retryAfterHeaders(limit),
    });
  }
  const verified = await verifyLogin(user.username, submission.value.currentPassword);
  if (!verified) {
    return data(
      submission.reply({
        fieldErrors: { currentPassword: ['Current password is incorrect'] },
        hideFields,
      }),
      { status: 400 },
    );
  }
  await resetLoginLimit(request, user.username);
  await setPassword(user.id, submission.value.newPassword);
  await deleteSessionsOfUser(user.id);
  const headers = await createUserSession(request, user);
  return redirectWithToast(
    '/account',
    {
      type: 'success',
      title: 'Password changed',
      description: 'Your password was changed and your other sessions were signed out.',
    },
    { headers },
  );
}

export default function AccountPage() {
  const { username } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'change-password',
    lastResult,
    constraint: getZodConstraint(ChangePasswordSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordSchema }),
  });
  return (
    <div className="container py-12 md:py-16">
      <section
        aria-labelledby="account-heading"
        className="mx-auto max-w-md rounded-lg border border-border bg-card p-6 sm:p-8"
      >
        <h1 id="account-heading" className="font-heading text-2xl font-bold">
          Account
        </h1>
        <p className="mt-2 text-sm text-muted-foreground">
          Signed in as <strong className="text-foreground">{username}</strong>.
        </p>
        <h2 className="mt-8 font-heading text-lg font-semibold">Favourites</h2>
        <p className="mt-2 text-sm text-muted-foreground">
          The tracks you heart are saved to your account, on every browser you log in with.
        </p>
        <Link to="/account/favourites" className={buttonClass('outline', 'md', 'mt-3')}>
          My favourites
        </Link>
        <h2 className="mt-8 font-heading text-lg font-semibold">Change password</h2>
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
          <FormError id={form.errorId} errors={form.errors} />
          <PasswordField
            label="Current password"
            field={fields.currentPassword}
            autoComplete="current-password"
          />
          <PasswordField
            label="New password"
            field={fields.newPassword}
            autoComplete="new-password"
            hint="At least 6 characters"
          />
          <PasswordField
            label="Confirm new password"
            field={fields.confirmPassword}
            autoComplete="new-password"
          />
          <SubmitButton
            pending={navigation.state === 'submitting' && navigation.formAction === '/account'}
            pendingLabel="Saving..."
            className="w-full"
          >
            Change password
          </SubmitButton>
        </Form>
        <h2 className="mt-10 font-heading text-lg font-semibold">Delete my account</h2>
        <p className="mt-2 text-sm text-muted-foreground">
          Removes your account, favourites and guest-list spots for good.
        </p>
        <Link
          to="/account/delete"
          preventScrollReset
          className={buttonClass('destructive', 'md', 'mt-3')}
        >
          Delete my account
        </Link>
      </section>
      <Outlet />
    </div>
  );
}
