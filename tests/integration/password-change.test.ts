import { beforeAll, describe, expect, it } from 'vitest';

import type * as FeedTokens from '~/models/podcast-feed-token.server';
import type * as Users from '~/models/user.server';
import type * as Accounts from '~/services/accounts.server';

import { setupTestDatabase } from '../helpers/test-db';

/**
 * A password change (issue 38): the new password works, the old one does not, and the private
 * podcast feed made before it stops working with every signed URL it handed out, as the other
 * sessions do.
 */
setupTestDatabase();

let users: typeof Users;
let feeds: typeof FeedTokens;
let accounts: typeof Accounts;

beforeAll(async () => {
  users = await import('~/models/user.server');
  feeds = await import('~/models/podcast-feed-token.server');
  accounts = await import('~/services/accounts.server');
});

describe('changeAccountPassword', () => {
  it('revokes the private feed and says so', async () => {
    const user = await users.createUser({ username: 'feed-listener', password: 'old-secret-123' });
    const { token, feed } = await feeds.createFeedToken(user.id);
    expect(await feeds.findFeedToken(token)).toMatchObject({ id: feed.id });

    expect(await accounts.changeAccountPassword(user, 'new-secret-456')).toBe(true);

    expect(await feeds.findFeedToken(token)).toBeNull();
    expect(await feeds.getFeedTokenById(feed.id)).toBeNull();
    expect(await users.verifyLogin('feed-listener', 'new-secret-456')).toMatchObject({
      id: user.id,
    });
    expect(await users.verifyLogin('feed-listener', 'old-secret-123')).toBeNull();
  });

  it('answers false for a member without a feed', async () => {
    const user = await users.createUser({ username: 'no-feed', password: 'old-secret-123' });
    expect(await accounts.changeAccountPassword(user, 'new-secret-456')).toBe(false);
  });
});
