import { createCookieSessionStorage, redirect } from '@remix-run/node';

import { env } from '~/platform/env.server';
import { ToastSchema } from '~/schemas/toast';
import type { ToastInput, ToastMessage } from '~/types/toast';

/*
 * Flash toasts: written by an action before a redirect, read (and cleared) by the root
 * loader, and rendered in the server HTML too, so they show without JavaScript.
 */

const TOAST_KEY = 'toast';

export const toastStorage = createCookieSessionStorage({
  cookie: {
    name: '__toast',
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: env.NODE_ENV === 'production' && !process.env.INSECURE_COOKIES,
    secrets: env.SESSION_SECRETS,
  },
});

export async function createToastHeaders(toast: ToastInput): Promise<Headers> {
  const session = await toastStorage.getSession();
  session.flash(TOAST_KEY, ToastSchema.parse(toast));
  return new Headers({ 'Set-Cookie': await toastStorage.commitSession(session) });
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  const toastHeaders = await createToastHeaders(toast);
  headers.append('Set-Cookie', toastHeaders.get('Set-Cookie') ?? '');
  return redirect(url, { ...init, headers });
}

/** Read the flash toast; the returned headers clear it (send them with the response). */
export async function getToast(
  request: Request,
): Promise<{ toast: ToastMessage | null; headers: Headers | null }> {
  const session = await toastStorage.getSession(request.headers.get('Cookie'));
  const parsed = ToastSchema.safeParse(session.get(TOAST_KEY));
  const toast = parsed.success ? parsed.data : null;
  return {
    toast,
    headers: toast
      ? new Headers({ 'Set-Cookie': await toastStorage.destroySession(session) })
      : null,
  };
}

/** Combine several header sets (e.g. a session commit and a toast) into one. */
export function combineHeaders(...sets: Array<HeadersInit | null | undefined>): Headers {
  const combined = new Headers();
  for (const set of sets) {
    if (!set) continue;
    for (const [key, value] of new Headers(set).entries()) combined.append(key, value);
  }
  return combined;
}
