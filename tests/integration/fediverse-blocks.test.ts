import { describe, expect, it } from 'vitest';

import { clearDatabase, setupTestDatabase } from '../helpers/test-db';

/**
 * The followers and the blocks of /admin/fediverse (decision 053), on the embedded store: a
 * domain block covers its subdomains and removes their follows, an account block removes that
 * follow, the count follows.
 */
setupTestDatabase();

const follower = (actorId: string) => ({
  actorId,
  inbox: `${actorId}/inbox`,
  sharedInbox: `${new URL(actorId).origin}/inbox`,
  handle: `@x@${new URL(actorId).host}`,
  name: 'A\u0000name\nwith controls',
  followId: `${actorId}#follow`,
});

describe('fediverse blocks', () => {
  it('blocking a domain refuses it and its subdomains and removes their follows', async () => {
    await clearDatabase();
    const f = await import('../../app/models/fediverse-follower.server');
    const b = await import('../../app/models/fediverse-block.server');
    const { blockDomain, blockActor, unblock } = await import('../../app/fediverse/blocks.server');
    expect(await f.addFollower(follower('https://127.0.0.1:4443/users/a'))).toBe(true);
    expect(await f.addFollower(follower('https://127.0.0.1:4443/users/a'))).toBe(false);
    await f.addFollower(follower('https://social.example.com/users/b'));
    await f.addFollower(follower('https://example.com/users/c'));
    await f.addFollower(follower('https://other.example/users/d'));
    expect(await f.countFollowers()).toBe(4);
    const page = await f.listFollowersPage(1);
    expect(page.items[0]!.name).toBe('A name with controls');

    expect(await blockDomain('127.0.0.1')).toEqual({ domain: '127.0.0.1', removed: 1 });
    expect(await b.isBlocked('https://127.0.0.1:4443/users/z', '127.0.0.1:4443')).toBe(true);
    expect(await blockDomain('https://Example.COM/')).toEqual({
      domain: 'example.com',
      removed: 2,
    });
    expect(await b.isBlocked(null, 'deep.social.example.com')).toBe(true);
    expect(await b.isBlocked(null, 'notexample.com')).toBe(false);
    expect(await f.countFollowers()).toBe(1);

    expect(await blockActor('https://other.example/users/d')).toEqual({ removed: true });
    expect(await b.isBlocked('https://other.example/users/d', 'other.example')).toBe(true);
    expect(await b.isBlocked('https://other.example/users/e', 'other.example')).toBe(false);
    expect(await f.countFollowers()).toBe(0);

    expect(await unblock('domain', 'example.com')).toBe(true);
    expect(await b.isBlocked(null, 'social.example.com')).toBe(false);
    const blocks = await b.listBlocksPage(1);
    expect(blocks.items.map((x) => x.value).sort()).toEqual([
      '127.0.0.1',
      'https://other.example/users/d',
    ]);
  });

  it('walks the followers for delivery a page at a time', async () => {
    await clearDatabase();
    const f = await import('../../app/models/fediverse-follower.server');
    for (let i = 0; i < 7; i++) await f.addFollower(follower(`https://p${i}.example/users/u`));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { actorId: string }[]; next: string | null } =
        await f.followersForDelivery(cursor, 3);
      seen.push(...page.items.map((x) => x.actorId));
      cursor = page.next;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });
});
