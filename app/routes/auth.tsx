import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { CalendarHeart, Headphones, Lock } from 'lucide-react';
import { Field, FormError, inputClass } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/button';
import { PasswordField } from '~/components/site/password-field';
import { useToastOnce, type ToastInput } from '~/components/site/toaster';
import { LoginSchema, RegisterSchema } from '~/schemas/auth';
import { requireAnonymous, safeRedirect } from '~/auth/auth.server';
import {
  TooManyAttemptsError,
  isAccountRefusal,
  logIn,
  register,
} from '~/services/accounts.server';
import { env } from '~/server/env.server';
import { redirectWithToast } from '~/auth/toast.server';
import { cn } from '~/utils/cn';

type Intent = 'login' | 'register';

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  {
    title: `${loaderData?.tab === 'register' ? 'Register' : 'Login'} | ${loaderData?.siteName ?? 'Night Shore'}`,
  },
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

/**
 * One action for both forms, told apart by the hidden `intent`. The fields are validated
 * with the shared schemas first, then the accounts service (as for /api/login and
 * /api/register) counts the attempt, checks the credentials or creates the (never admin)
 * user, and starts the session.
 */
export async function action({ request }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await request.clone().formData();
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

const PERKS = [
  {
    icon: Lock,
    title: 'Exclusive member-only content',
    text: 'Studio diaries, stems and sets you won’t find anywhere else.',
  },
  {
    icon: Headphones,
    title: 'Early access to new releases',
    text: 'Hear new tracks before they hit the streaming services.',
  },
  {
    icon: CalendarHeart,
    title: 'Special event invitations',
    text: 'Guest-list spots and invitations to members-only nights.',
  },
];

export default function AuthPage() {
  const { tab, redirectTo, siteName } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const active: Intent = actionData?.intent ?? tab;
  useToastOnce(actionData?.toast);

  const tabHref = (t: Intent) => {
    const params = new URLSearchParams({ tab: t });
    if (redirectTo) params.set('redirectTo', redirectTo);
    return `/auth?${params}`;
  };

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
          <nav aria-label="Account" className="mt-6">
            <ul className="grid grid-cols-2 gap-1 rounded-md bg-muted p-1">
              {(['login', 'register'] as const).map((t) => (
                <li key={t}>
                  <Link
                    to={tabHref(t)}
                    replace
                    preventScrollReset
                    aria-current={active === t ? 'page' : undefined}
                    className={cn(
                      'block rounded-sm px-3 py-2 text-center text-sm font-semibold transition-colors',
                      'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                      active === t
                        ? 'bg-background text-foreground shadow'
                        : 'text-muted-foreground hover:text-foreground',
                    )}
                  >
                    {t === 'login' ? 'Login' : 'Register'}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
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
        <aside
          aria-labelledby="join-heading"
          className="rounded-lg border border-border bg-gradient-to-br from-primary/20 via-card to-card p-6 sm:p-8"
        >
          <h2 id="join-heading" className="font-heading text-2xl font-bold">
            Join the {siteName} community
          </h2>
          <p className="mt-3 text-muted-foreground">
            Become a member and get closer to the music: a free account opens the door to everything
            we do beyond the dance floor.
          </p>
          <ul className="mt-6 space-y-5">
            {PERKS.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-4">
                <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-primary/15 text-primary">
                  <Icon aria-hidden="true" className="h-5 w-5" />
                </span>
                <span>
                  <span className="block font-semibold">{title}</span>
                  <span className="block text-sm text-muted-foreground">{text}</span>
                </span>
              </li>
            ))}
          </ul>
        </aside>
      </div>
    </div>
  );
}

function usePendingIntent(intent: Intent) {
  const navigation = useNavigation();
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
}

function LoginForm({
  redirectTo,
  lastResult,
}: {
  redirectTo: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const pending = usePendingIntent('login');
  const [form, fields] = useForm({
    id: 'login-form',
    lastResult,
    constraint: getZodConstraint(LoginSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="login" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormError id={form.errorId} errors={form.errors} />
      <Field label="Username" errors={fields.username.errors} id={fields.username.id}>
        {(a11y) => (
          <input
            {...getInputProps(fields.username, { type: 'text' })}
            {...a11y}
            autoComplete="username"
            className={inputClass}
          />
        )}
      </Field>
      <PasswordField label="Password" field={fields.password} autoComplete="current-password" />
      <SubmitButton pending={pending} pendingLabel="Logging in..." className="w-full">
        Login
      </SubmitButton>
    </Form>
  );
}

function RegisterForm({
  redirectTo,
  lastResult,
}: {
  redirectTo: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const pending = usePendingIntent('register');
  const [form, fields] = useForm({
    id: 'register-form',
    lastResult,
    constraint: getZodConstraint(RegisterSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="register" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormError id={form.errorId} errors={form.errors} />
      <Field
        label="Username"
        errors={fields.username.errors}
        id={fields.username.id}
        hint="At least 3 characters"
      >
        {(a11y) => (
          <input
            {...getInputProps(fields.username, { type: 'text' })}
            {...a11y}
            autoComplete="username"
            className={inputClass}
          />
        )}
      </Field>
      <PasswordField
        label="Password"
        field={fields.password}
        autoComplete="new-password"
        hint="At least 6 characters"
      />
      <PasswordField
        label="Confirm Password"
        field={fields.confirmPassword}
        autoComplete="new-password"
      />
      <SubmitButton pending={pending} pendingLabel="Creating account..." className="w-full">
        Create Account
      </SubmitButton>
    </Form>
  );
}
