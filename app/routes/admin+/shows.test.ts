import mongoose from 'mongoose';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const listShows = vi.fn();
const requireAdmin = vi.fn();
vi.mock('~/models/show.server', () => ({
  ADMIN_SHOWS_PER_PAGE: 24,
  pageShows: (options: unknown) => listShows(options),
}));
vi.mock('~/auth/auth.server', () => ({ requireAdmin: (r: Request) => requireAdmin(r) }));

const { loader } = await import('./shows');
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
    listShows.mockResolvedValue({
      items: [{ id: 1, title: 'A show' }],
      page: 1,
      pageCount: 1,
      total: 1,
      perPage: 24,
    });
    expect(await loader(args())).toMatchObject({
      shows: [{ id: 1, title: 'A show' }],
      page: 1,
      pageCount: 1,
    });
    expect(listShows).toHaveBeenCalledWith(expect.objectContaining({ page: 1 }));
  });

  it("throws a 503 when the database cannot answer (the boundary's 'Error loading shows')", async () => {
    listShows.mockRejectedValue(new mongoose.mongo.MongoNetworkError('connection refused'));
    const thrown: unknown = await loader(args()).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(503);
    // The driver's text stays in the log.
    expect(await (thrown as Response).text()).not.toContain('connection refused');
  });

  it('lets any other failure through, to the boundary as an unexpected error', async () => {
    const bug = new TypeError('undefined is not a function');
    listShows.mockRejectedValue(bug);
    await expect(loader(args())).rejects.toBe(bug);
  });

  it('checks the admin before reading anything', async () => {
    const redirect = new Response(null, { status: 302, headers: { Location: '/' } });
    requireAdmin.mockRejectedValue(redirect);
    await expect(loader(args())).rejects.toBe(redirect);
    expect(listShows).not.toHaveBeenCalled();
  });
});
