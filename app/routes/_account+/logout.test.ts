import { beforeEach, describe, expect, it, vi } from 'vitest';

// The session store: one live session, whose delete fails (the database is down) when told to.
const deleteOne = vi.fn();
vi.mock('~/models/session.server', () => ({
  SessionModel: {
    findById: () => ({
      lean: async () => ({ data: { userId: 1 }, expiresAt: new Date(Date.now() + 60_000) }),
    }),
    deleteOne: (filter: unknown) => deleteOne(filter),
  },
  purgeExpiredSessions: async () => undefined,
}));

const { action } = await import('./logout');
const { sessionCookie } = await import('~/auth/session-storage.server');
const { getToast } = await import('~/auth/toast.server');

async function logoutRequest() {
  const cookie = (await sessionCookie.serialize('session-id')).split(';')[0]!;
  return new Request('http://localhost/logout', { method: 'POST', headers: { Cookie: cookie } });
}

async function toastOf(response: Response) {
  const toastCookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith('__toast='))
    ?.split(';')[0];
  const request = new Request('http://localhost/', { headers: { Cookie: toastCookie ?? '' } });
  return (await getToast(request)).toast;
}

describe('POST /logout', () => {
  beforeEach(() => {
    deleteOne.mockReset();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });

  it('ends the session and goes home with the Logged out toast', async () => {
    deleteOne.mockResolvedValue({ deletedCount: 1 });
    const response = await action({ request: await logoutRequest(), params: {}, context: {} });
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/');
    expect(deleteOne).toHaveBeenCalledWith({ _id: 'session-id' });
    expect(response.headers.getSetCookie().some((c) => /^__session=;/.test(c))).toBe(true);
    expect(await toastOf(response)).toMatchObject({ type: 'success', title: 'Logged out' });
  });

  it('a failing session store shows the Logout failed toast, not the error page', async () => {
    deleteOne.mockRejectedValue(new Error('connection refused'));
    const response = await action({ request: await logoutRequest(), params: {}, context: {} });
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/');
    // Still logged in: the session cookie is left as it is, and the toast says so.
    expect(response.headers.getSetCookie().some((c) => c.startsWith('__session='))).toBe(false);
    const toast = await toastOf(response);
    expect(toast).toMatchObject({ type: 'error', title: 'Logout failed' });
    expect(toast?.description).not.toContain('connection refused');
  });
});
