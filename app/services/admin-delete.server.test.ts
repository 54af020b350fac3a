import { beforeEach, describe, expect, it, vi } from 'vitest';

import type * as Delete from './admin-delete.server';

const requireAdmin = vi.fn();
vi.mock('~/auth/auth.server', () => ({ requireAdmin: (r: Request) => requireAdmin(r) }));

const { deleteAction, deleteLoader } = await import('./admin-delete.server');
const { getToast } = await import('~/auth/toast.server');
const { SERVER_FAILURE_MESSAGE } = await import('~/platform/http-errors.server');

type Thing = { id: number; title: string };
const things = new Map<number, Thing>();
const route: Delete.DeleteRoute<Thing> = {
  notFound: 'Thing not found',
  failureTitle: 'Failed to delete thing',
  successTitle: 'Thing deleted',
  successDescription: (thing) => `"${thing.title}" was deleted.`,
  get: async (id) => things.get(id) ?? null,
  remove: async (id) => {
    if (id === 13) throw new Error('disk on fire');
    const thing = things.get(id) ?? null;
    things.delete(id);
    return thing;
  },
  listUrl: (request) => `/admin/things${new URL(request.url).search}`,
};

const args = (id: string) => ({
  request: new Request(`http://localhost/admin/things/${id}/delete?tab=old`, { method: 'POST' }),
  params: { id },
  context: {},
});

async function toastOf(response: Response) {
  const cookie = response.headers.get('Set-Cookie')?.split(';')[0] ?? '';
  const { toast } = await getToast(
    new Request('http://localhost/', { headers: { Cookie: cookie } }),
  );
  return toast;
}

describe('admin delete routes', () => {
  beforeEach(() => {
    requireAdmin.mockReset().mockResolvedValue({ id: 1, username: 'admin', isAdmin: true });
    things.clear();
    things.set(7, { id: 7, title: 'Seven' });
  });

  it('the loader gives the item and where Cancel goes, or a 404 with the noun', async () => {
    expect(await deleteLoader(args('7'), route)).toEqual({
      item: { id: 7, title: 'Seven' },
      closeTo: '/admin/things?tab=old',
    });
    for (const id of ['8', 'abc', '-1']) {
      const thrown = await deleteLoader(args(id), route).catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(404);
      expect(await (thrown as Response).text()).toBe('Thing not found');
    }
  });

  it('the action deletes and goes back to the list with a success toast', async () => {
    const response = await deleteAction(args('7'), route);
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/admin/things?tab=old');
    expect(await toastOf(response)).toMatchObject({
      type: 'success',
      title: 'Thing deleted',
      description: '"Seven" was deleted.',
    });
    expect(things.has(7)).toBe(false);
  });

  it('a missing item or a failing delete is an error toast (the generic words), not the error page', async () => {
    for (const [id, description] of [
      ['7000', 'Thing not found'],
      ['x', 'Thing not found'],
      ['13', SERVER_FAILURE_MESSAGE],
    ] as const) {
      const response = await deleteAction(args(id), route);
      expect(response.headers.get('Location')).toBe('/admin/things?tab=old');
      expect(await toastOf(response)).toMatchObject({
        type: 'error',
        title: 'Failed to delete thing',
        description,
      });
    }
  });

  it('asks for an admin first', async () => {
    requireAdmin.mockRejectedValue(new Response(null, { status: 302 }));
    await expect(deleteAction(args('7'), route)).rejects.toBeInstanceOf(Response);
    await expect(deleteLoader(args('7'), route)).rejects.toBeInstanceOf(Response);
    expect(things.has(7)).toBe(true);
  });
});
