import mongoose from 'mongoose';
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
    expect(await loader(args())).toEqual({ shows: [{ id: 1, title: 'A show' }] });
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
