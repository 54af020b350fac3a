import { describe, expect, it } from 'vitest';

import { refuseForeignObjects } from './activity-hosts.server';

const SITE = 'https://nightshore.band/fediverse/site';
const PEER = 'social.example';
const alice = `https://${PEER}/users/alice`;
const check = (body: unknown) => refuseForeignObjects(body, PEER, SITE);

describe('refuseForeignObjects', () => {
  it('lets a follow of the site, its undo and a deletion of the sender pass', () => {
    const follow = { id: `${alice}#follows/1`, type: 'Follow', actor: alice, object: SITE };
    expect(check(follow)).toBeNull();
    expect(check({ id: `${alice}#undo/1`, type: 'Undo', actor: alice, object: follow })).toBeNull();
    // An Undo whose inline Follow has no id: judged by that Follow's actor.
    expect(
      check({ type: 'Undo', actor: { id: alice }, object: { type: 'Follow', actor: alice } }),
    ).toBeNull();
    expect(
      check({ id: `${alice}#delete`, type: 'Delete', actor: alice, object: alice }),
    ).toBeNull();
    // Likes and boosts name anyone's objects (and are ignored).
    expect(check({ type: 'Like', actor: alice, object: `${SITE}/../music/1` })).toBeNull();
  });

  it('refuses an actor on another host than the signer (401)', () => {
    expect(
      check({ type: 'Follow', actor: 'https://other.example/users/bob', object: SITE }),
    ).toMatchObject({ status: 401 });
    expect(
      check({ type: 'Follow', actor: ['https://other.example/u/b'], object: SITE })?.status,
    ).toBe(401);
  });

  it('refuses activities that name other hosts’ objects (400)', () => {
    const refused = [
      { type: 'Follow', actor: alice, object: 'https://other.example/users/bob' },
      { type: 'Follow', actor: alice },
      { id: 'https://other.example/activities/1', type: 'Like', actor: alice, object: SITE },
      { id: 5, type: 'Follow', actor: alice, object: SITE },
      { type: 'Delete', actor: alice, object: 'https://nightshore.band/music/1' },
      { type: 'Update', actor: alice, object: { id: 'https://other.example/notes/1' } },
      { type: 'Create', actor: alice, object: { type: 'Note', content: 'no id' } },
      {
        type: 'Undo',
        actor: alice,
        object: { id: 'https://other.example/follows/9', type: 'Follow', actor: alice },
      },
      { type: 'Undo', actor: alice, object: { type: 'Follow', actor: 'https://other.example/u' } },
      { type: 'Follow', object: SITE },
      { type: 'Follow', actor: 'not a url', object: SITE },
    ];
    for (const body of refused) expect(check(body), JSON.stringify(body)).not.toBeNull();
    expect(check(refused[0])?.message).toBe('A Follow sent here must follow this site.');
    expect(check(refused[4])?.message).toBe('A Delete may only name its actor’s own objects.');
  });

  it('leaves what is not an activity to Fedify', () => {
    for (const junk of [undefined, null, 'text', 5, [], {}, { type: [] }, { type: 7 }]) {
      expect(check(junk)).toBeNull();
    }
  });

  it('compares hosts with their port, without regard to case', () => {
    expect(
      refuseForeignObjects(
        { type: 'Follow', actor: 'https://Peer.Example:8443/u/a', object: SITE },
        'peer.example:8443',
        SITE,
      ),
    ).toBeNull();
    expect(
      refuseForeignObjects(
        { type: 'Follow', actor: 'https://peer.example:9/u/a', object: SITE },
        'peer.example:8443',
        SITE,
      )?.status,
    ).toBe(401);
  });
});
