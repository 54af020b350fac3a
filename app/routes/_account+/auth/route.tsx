import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';

import { requireAnonymous, safeRedirect } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { useToastOnce } from '~/components/site/toaster';
import { env } from '~/platform/env.server';
import { retryAfterFromAction } from '~/platform/rate-limit.server';
import { readForm } from '~/platform/request-body.server';
import { LoginSchema, RegisterSchema } from '~/schemas/auth';
import {
  isAccountRefusal,
  logIn,
  register,
  TooManyAttemptsError,
} from '~/services/accounts.server';
import type { ToastInput } from '~/types/toast';
import { pageTitle } from '~/utils/seo/seo';

import { AccountTabs } from './account-tabs';
import { LoginForm } from './login-form';
import { MemberPerks } from './member-perks';
import { RegisterForm } from './register-form';

type Intent = 'login' | 'register';

export const meta: MetaFunction<typeof loader> = ({ data: loaderData, matches }) => [
  pageTitle(matches, loaderData?.tab === 'register' ? 'Register' : 'Login'),
];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const url = new URL(request.url);
  const tab: Intent = url.searchParams.get('tab') === 'register' ? 'register' : 'login';
  const redirectTo = url.searchParams.get('redirectTo') ?? '';
  return { tab, redirectTo, siteName: env.SITE_NAME };
}

type ActionResult = { intent: Intent; result: SubmissionResult<string[]>; toast: ToastInput };

const failureToast = (intent: Intent, description: string): ToastInput => ({
  id: Math.random().toString(36).slice(2),
  type: 'error',
  title: intent === 'login' ? 'Login failed' : 'Registration failed',
  description,
});

/** A 429 of the action keeps its Retry-After on the page's answer. */
export const headers = retryAfterFromAction;

/**
 * One action for both forms, told apart by the hidden `intent`. The fields are validated
 * with the shared schemas first (the messages every form shows), then the accounts service
 * (as for /api/login and /api/register) counts the attempt, checks the credentials or
 * creates the (never admin) user, and starts the session.
 */
export async function action({ request }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await readForm(request);
  const intent: Intent = formData.get('intent') === 'register' ? 'register' : 'login';
  const hideFields = ['password', 'confirmPassword'];

  const submission =
    intent === 'register'
      ? parseWithZod(formData, { schema: RegisterSchema })
      : parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== 'success') {
    const first = Object.values(submission.error ?? {}).flat()[0] ?? 'Invalid input';
    return data<ActionResult>(
      { intent, result: submission.reply({ hideFields }), toast: failureToast(intent, first) },
      { status: 400 },
    );
  }

  const credentials = {
    username: submission.value.username,
    password: submission.value.password,
  };
  let session;
  try {
    session =
      intent === 'login' ? await logIn(request, credentials) : await register(request, credentials);
  } catch (error) {
    if (!isAccountRefusal(error)) throw error;
    // Abuse limits (per address; login also per address + username): a 429 with Retry-After.
    const tooMany = error instanceof TooManyAttemptsError;
    return data<ActionResult>(
      {
        intent,
        result: submission.reply({ formErrors: [error.message], hideFields }),
        toast: failureToast(intent, error.message),
      },
      { status: tooMany ? 429 : 400, headers: tooMany ? error.headers : undefined },
    );
  }

  const { user, headers } = session;
  const to = safeRedirect(submission.value.redirectTo);
  return redirectWithToast(
    to,
    intent === 'login'
      ? {
          type: 'success',
          title: 'Login successful',
          description: `Welcome back, ${user.username}!`,
        }
      : {
          type: 'success',
          title: 'Registration successful',
          description: `Welcome to ${env.SITE_NAME}, ${user.username}!`,
        },
    { headers },
  );
}

export default function AuthPage() {
  const { tab, redirectTo, siteName } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const active: Intent = actionData?.intent ?? tab;
  useToastOnce(actionData?.toast);

  return (
    <div className="container py-12 md:py-16">
      <div className="mx-auto grid max-w-5xl gap-8 lg:grid-cols-2">
        <section
          aria-labelledby="auth-heading"
          className="rounded-lg border border-border bg-card p-6 sm:p-8"
        >
          <h1 id="auth-heading" className="font-heading text-2xl font-bold">
            {active === 'login' ? 'Welcome back' : 'Create an account'}
          </h1>
          <AccountTabs active={active} redirectTo={redirectTo} />
          <div className="mt-6">
            {active === 'login' ? (
              <LoginForm
                key="login"
                redirectTo={redirectTo}
                lastResult={actionData?.intent === 'login' ? actionData.result : undefined}
              />
            ) : (
              <RegisterForm
                key="register"
                redirectTo={redirectTo}
                lastResult={actionData?.intent === 'register' ? actionData.result : undefined}
              />
            )}
          </div>
        </section>
        <MemberPerks siteName={siteName} />
      </div>
    </div>
  );
}
