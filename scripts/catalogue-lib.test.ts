import { describe, expect, it } from 'vitest';

import {
  addDays,
  copyOf,
  createdAtOf,
  type Doc,
  formatTable,
  FUTURE_SHOWS,
  type Measured,
  median,
  misses,
  ONE_X,
  parseOptions,
  spread,
  targetCounts,
  uniqueEmail,
} from './catalogue-lib';

const demo = { tracks: 8, posts: 6, shows: 7, gallery: 8, subscribers: 6, users: 2, messages: 4 };
const now = Date.parse('2026-06-01T12:00:00Z');
const context = (n: number) => ({ n, id: 1000 + n, now, today: '2026-06-01', uuid: `u-${n}` });

describe('parseOptions', () => {
  it('defaults to the issue: demo, 1× and 10× on the external store', () => {
    const o = parseOptions([]);
    expect(o.sizes.map((s) => s.scale)).toEqual([null, 1, 10]);
    expect(o).toMatchObject({ store: 'external', timeoutMs: 30_000, runs: 5, latencyMs: 0 });
  });

  it('takes --scale (after the demo) and --sizes, fractional too', () => {
    expect(parseOptions(['--scale', '0.1']).sizes.map((s) => s.label)).toEqual(['demo', '0.1×']);
    expect(parseOptions(['--sizes', 'demo,0.1,1x']).sizes.map((s) => s.scale)).toEqual([
      null,
      0.1,
      1,
    ]);
    expect(parseOptions(['--store', 'embedded', '--timeout', '5']).timeoutMs).toBe(5000);
    expect(parseOptions([]).pages).toBeNull();
    expect(parseOptions(['--pages', '/,/admin']).pages).toEqual(['/', '/admin']);
    expect(parseOptions(['--pages', 'none']).pages).toEqual([]);
  });

  it('takes --pair: two grown sizes side by side, the smaller first', () => {
    expect(parseOptions([]).pair).toBeNull();
    expect(parseOptions(['--pair', '1,10']).pair?.map((s) => s.label)).toEqual(['1×', '10×']);
    expect(() => parseOptions(['--pair', '10,1'])).toThrow(/smaller first/);
    expect(() => parseOptions(['--pair', 'demo,1'])).toThrow(/two grown sizes/);
    expect(() => parseOptions(['--pair', '1,2,3'])).toThrow(/two grown sizes/);
    expect(() => parseOptions(['--pair', '1,10', '--scale', '2'])).toThrow(/--pair or/);
    expect(() => parseOptions(['--pair', '1,10', '--store', 'embedded'])).toThrow(/external/);
  });

  it('refuses sizes that shrink, a late demo, a bad store or a missing value', () => {
    expect(() => parseOptions(['--sizes', 'demo,1,0.1'])).toThrow(/increase/);
    expect(() => parseOptions(['--sizes', '1,demo'])).toThrow(/first/);
    expect(() => parseOptions(['--sizes', 'demo,x'])).toThrow(/not a size/);
    expect(() => parseOptions(['--store', 'atlas'])).toThrow(/external or embedded/);
    expect(() => parseOptions(['--scale'])).toThrow(/needs a value/);
    expect(() => parseOptions(['--scale', '1', '--sizes', '1'])).toThrow(/--scale or --sizes/);
  });
});

describe('targetCounts', () => {
  it('is N times the issue’s 1×, never fewer than the demo’s records', () => {
    expect(targetCounts(1, demo)).toEqual(ONE_X);
    expect(targetCounts(10, demo).subscribers).toBe(500_000);
    expect(targetCounts(0.001, demo)).toMatchObject({ tracks: 8, subscribers: 50, users: 3 });
  });
});

describe('copies of the demo records', () => {
  it('spreads values in [0, 1) deterministically', () => {
    const xs = Array.from({ length: 1000 }, (_, n) => spread(n));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(spread(42)).toBe(spread(42));
    // Roughly uniform: each tenth holds some.
    for (let d = 0; d < 10; d++)
      expect(xs.filter((x) => Math.floor(x * 10) === d).length).toBeGreaterThan(50);
  });

  it('dates copies in the last six years, never ahead', () => {
    for (let n = 0; n < 500; n++) {
      const at = createdAtOf(n, now).getTime();
      expect(at).toBeLessThan(now);
      expect(at).toBeGreaterThan(now - 6 * 366 * 86_400_000);
    }
  });

  it('gives each copy its own id, slug, email, username and podcast GUID', () => {
    const track: Doc = {
      _id: 'x',
      id: 1,
      title: 'T',
      featured: true,
      podcastGuid: 'g',
      type: 'Mix',
    };
    const copy = copyOf('tracks', track, context(3));
    expect(copy).toMatchObject({ id: 1003, title: 'T', featured: false, type: 'Mix' });
    expect(copy).not.toHaveProperty('_id');
    expect(copy.podcastGuid).toBe('urn:uuid:u-3');
    expect(copy.visibility).toBe('members'); // one in eight
    expect(copyOf('tracks', track, context(4)).visibility).toBe('public');
    expect(copyOf('posts', { slug: 'out-now' }, context(7)).slug).toBe('out-now-7');
    const subscriber = copyOf('subscribers', { email: 'Sam.K@Example.com' }, context(9));
    expect(subscriber).toMatchObject({
      email: 'Sam.K+9@Example.com',
      emailLower: 'sam.k+9@example.com',
    });
    const user = copyOf(
      'users',
      { username: 'bench-member', isAdmin: false, email: 'a@b.c', passwordHash: 'h' },
      context(5),
    );
    expect(user).toMatchObject({
      username: 'listener5',
      usernameLower: 'listener5',
      passwordHash: 'h',
    });
    expect(user).not.toHaveProperty('email');
    expect(uniqueEmail('no-at', 2)).toBe('no-at+2');
  });

  it('puts the first shows ahead within 180 days and the rest in the past', () => {
    const dates = Array.from(
      { length: 100 },
      (_, n) => copyOf('shows', { date: 'x' }, context(n)).date as string,
    );
    const ahead = dates.filter((d) => d > '2026-06-01');
    expect(ahead.length).toBe(FUTURE_SHOWS);
    expect(ahead.every((d) => d <= addDays('2026-06-01', 181))).toBe(true);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('figures and bars', () => {
  const row = (over: Partial<Measured>): Measured => ({
    page: { path: '/music', role: 'member' },
    ms: 100,
    timeout: false,
    status: 200,
    bytes: 1000,
    commands: 3,
    roundTrips: 1,
    storeCommands: 3,
    ...over,
  });

  it('takes the median', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('marks what misses: size, status, timeout, time against the demo and the previous size', () => {
    const one = (over: Partial<Measured>) => [row(over)];
    expect(misses(row({}), { scale: 1, demo: one({ ms: 40 }) })).toEqual([]);
    expect(misses(row({}), { scale: 1, demo: one({ ms: 30 }) })).toEqual(['> 3× demo']);
    // 10×: against 1×, not the demo.
    expect(misses(row({}), { scale: 10, demo: one({ ms: 30 }) })).toEqual([]);
    const previous = { label: '1×', rows: one({ ms: 60 }) };
    expect(misses(row({}), { scale: 10, demo: one({ ms: 30 }), previous })).toEqual(['> 1.5× 1×']);
    expect(misses(row({ bytes: 300_000 }), { scale: null })).toEqual(['> 250 KB']);
    expect(misses(row({ ms: null, timeout: true, status: null }), { scale: 1 })).toEqual([
      'timeout',
    ]);
    expect(misses(row({ status: 302 }), { scale: null })).toEqual(['status 302']);
    const feed = row({ page: { path: '/podcast.xml', role: 'member', complete: true } });
    const feedDemo = [{ ...feed, ms: 1 }];
    expect(misses({ ...feed, bytes: 9e6 }, { scale: 1, demo: feedDemo })).toEqual([]);
    const newsletter = row({
      page: { path: '/admin/newsletter', role: 'admin', newsletter: true },
      ms: 600,
    });
    expect(misses(newsletter, { scale: 10 })).toEqual(['≥ 500 ms']);
  });

  it('prints a row per page with its time in the role’s column', () => {
    const table = formatTable(
      [row({}), row({ page: { path: '/admin', role: 'admin' }, timeout: true, ms: null })],
      { scale: 1, demo: [row({ ms: 20 })], previous: { label: '0.1×', rows: [row({ ms: 80 })] } },
      30_000,
    );
    const [, , music, admin] = table.split('\n');
    expect(music).toMatch(
      /^\/music\s+100\s+1\.0\s+3\s+1\s+3\.0\s+5\.00×\s+1\.25×\s+MISSED: > 3× demo$/,
    );
    expect(admin).toMatch(/^\/admin\s+>30s\s+1\.0 .*MISSED: timeout$/);
  });
});
