import { beforeEach, describe, expect, it, vi } from 'vitest';

const listShows = vi.fn();
const requireAdmin = vi.fn();
vi.mock('~/models/show.server', () => ({ listShows: () => listShows() }));
vi.mock('~/auth/auth.server', () => ({ requireAdmin: (r: Request) => requireAdmin(r) }));

const { loader } = await import('./admin.shows');
const args = () => ({
  request: new Request('http://localhost/admin/shows'),
  params: {},
  context: {},
});

describe('admin shows loader', () => {
  beforeEach(() => {
    listShows.mockReset();
    requireAdmin.mockReset().mockResolvedValue({ id: 1, username: 'admin', isAdmin: true });
  });

  it('returns the shows', async () => {
    listShows.mockResolvedValue([{ id: 1, title: 'A show' }]);
    expect(await loader(args())).toEqual({ shows: [{ id: 1, title: 'A show' }], error: null });
  });

  it("turns a failing query into the page's 'Error loading shows' message", async () => {
    listShows.mockRejectedValue(new Error('connection refused'));
    expect(await loader(args())).toEqual({ shows: [], error: 'connection refused' });
  });

  it('checks the admin before reading anything', async () => {
    const redirect = new Response(null, { status: 302, headers: { Location: '/' } });
    requireAdmin.mockRejectedValue(redirect);
    await expect(loader(args())).rejects.toBe(redirect);
    expect(listShows).not.toHaveBeenCalled();
  });
});
