import { beforeAll, describe, expect, it } from 'vitest';

import type * as MessagesModule from '~/models/contact-message.server';
import type * as PagingModule from '~/models/paging.server';
import { pageParam } from '~/utils/page-href';

import { setupTestDatabase } from '../helpers/test-db';

/**
 * The paging primitive (app/models/paging.server.ts) on the embedded store: numbered pages,
 * keyset cursors that visit every record exactly once while records are inserted between
 * requests, ties in the sort key, and refused cursors.
 */
setupTestDatabase();

let paging: typeof PagingModule;
let messages: typeof MessagesModule;

const SORT = { createdAt: -1, id: -1 } as const;

beforeAll(async () => {
  paging = await import('~/models/paging.server');
  messages = await import('~/models/contact-message.server');
});

async function addMessages(marker: string, count: number, createdAt?: Date) {
  const made: number[] = [];
  for (let i = 0; i < count; i++) {
    const doc = await messages.ContactMessage.create({
      name: `${marker} ${i}`,
      email: `${marker}-${i}@example.test`,
      subject: marker,
      message: 'A message long enough.',
      ...(createdAt ? { createdAt } : {}),
    });
    made.push(doc.id);
  }
  return made;
}

describe('cursors', () => {
  it('encode the sort values and decode them back, dates as dates', () => {
    const record = { createdAt: new Date('2026-01-02T03:04:05.000Z'), id: 42 };
    const cursor = paging.encodeCursor('contact_messages', SORT, record);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(paging.decodeCursor('contact_messages', SORT, cursor)).toEqual([record.createdAt, 42]);
  });

  it('refuse what this list did not issue: forged, altered, or from another list', () => {
    const list = 'contact_messages';
    const payload = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const good = paging.encodeCursor(list, SORT, { createdAt: new Date(0), id: 7 });
    const [, mac] = good.split('.');
    // Well-formed values without the signature, or with another cursor's.
    expect(
      paging.decodeCursor(list, SORT, payload([{ $d: '2026-01-01T00:00:00Z' }, 1])),
    ).toBeNull();
    expect(
      paging.decodeCursor(list, SORT, `${payload([{ $d: '2026-01-01T00:00:00Z' }, 1])}.${mac}`),
    ).toBeNull();
    // One character changed in the values or in the signature.
    const flip = (s: string, at: number) =>
      s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
    expect(paging.decodeCursor(list, SORT, flip(good, 3))).toBeNull();
    expect(paging.decodeCursor(list, SORT, flip(good, good.length - 2))).toBeNull();
    // The same values, issued by another list.
    expect(paging.decodeCursor('subscribers', SORT, good)).toBeNull();
    expect(paging.decodeCursor(list, SORT, 'not a cursor!')).toBeNull();
    expect(paging.decodeCursor(list, SORT, `${good}.${mac}`)).toBeNull();
    // Signed but not of this sort's shape.
    expect(paging.decodeCursor(list, { id: 1 }, good)).toBeNull();
  });

  it('build a filter that starts strictly after the last record, ties settled by id', () => {
    const at = new Date('2026-01-01T00:00:00.000Z');
    // As JSON: the operator objects carry mongoose's `trusted` mark (a symbol) besides.
    const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
    expect(json(paging.afterFilter(SORT, [at, 7]))).toEqual(
      json({
        createdAt: { $lte: at },
        $or: [{ createdAt: { $lt: at } }, { createdAt: at, id: { $lt: 7 } }],
      }),
    );
    expect(json(paging.afterFilter({ id: 1 }, [7]))).toEqual({ id: { $gt: 7 } });
  });
});

describe('parameters', () => {
  it('read ?page and ?limit', () => {
    const p = (q: string) => new URLSearchParams(q);
    expect(pageParam(p(''))).toBe(1);
    expect(pageParam(p('page=3'))).toBe(3);
    expect(pageParam(p('page=0'))).toBe(1);
    expect(pageParam(p('page=-2'))).toBe(1);
    expect(paging.limitParam(p(''))).toBeNull();
    expect(paging.limitParam(p('limit=20'))).toBe(20);
    expect(paging.limitParam(p('limit=1000'))).toBe(paging.MAX_PAGE_LIMIT);
    expect(paging.limitParam(p('limit=0'))).toBe('invalid');
    expect(paging.limitParam(p('limit=ten'))).toBe('invalid');
  });
});

describe('pages of a collection', () => {
  it('keyset pages visit every record exactly once while records are inserted', async () => {
    const marker = 'keyset-insert';
    // Eleven share one timestamp, so a page boundary falls inside a tie.
    const tied = await addMessages(marker, 11, new Date('2026-03-01T12:00:00.000Z'));
    const rest = await addMessages(marker, 34);
    const original = new Set([...tied, ...rest]);
    const filter = { subject: marker };

    const seen: number[] = [];
    let cursor: string | null = null;
    let inserted = 0;
    do {
      const page: PagingModule.KeysetPage<{ id: number }> = await paging.findKeysetPage(
        messages.ContactMessage,
        { filter, sort: SORT, limit: 10, cursor, fields: ['id'] },
      );
      seen.push(...page.items.map((m) => m.id));
      cursor = page.next;
      // A newer record arrives between requests: it sorts before the cursor, so it is not
      // part of this walk, and nothing shifts under it.
      await addMessages(marker, 1);
      inserted++;
    } while (cursor);

    const seenOriginal = seen.filter((id) => original.has(id));
    expect(seenOriginal).toHaveLength(original.size);
    expect(new Set(seen).size).toBe(seen.length);
    expect(inserted).toBe(5);
  });

  it('keyset pages come in sort order and end with next: null', async () => {
    const marker = 'keyset-order';
    await addMessages(marker, 7);
    const first = await paging.findKeysetPage(messages.ContactMessage, {
      filter: { subject: marker },
      sort: SORT,
      limit: 4,
      cursor: null,
    });
    expect(first.items.map((m) => m.name)).toEqual([6, 5, 4, 3].map((i) => `${marker} ${i}`));
    expect(first.next).not.toBeNull();
    const second = await paging.findKeysetPage(messages.ContactMessage, {
      filter: { subject: marker },
      sort: SORT,
      limit: 4,
      cursor: first.next,
    });
    expect(second.items.map((m) => m.name)).toEqual([2, 1, 0].map((i) => `${marker} ${i}`));
    expect(second.next).toBeNull();
  });

  it('a cursor this list did not issue is refused', async () => {
    await expect(
      paging.findKeysetPage(messages.ContactMessage, { sort: SORT, limit: 4, cursor: 'bogus!' }),
    ).rejects.toBeInstanceOf(paging.BadCursorError);
  });

  it('numbered pages count the filter and clamp past the end', async () => {
    const marker = 'numbered';
    await addMessages(marker, 12);
    const filter = { subject: marker };
    const two = await paging.findNumberedPage(messages.ContactMessage, {
      filter,
      sort: SORT,
      page: 2,
      perPage: 5,
    });
    expect(two).toMatchObject({ page: 2, pageCount: 3, total: 12, perPage: 5 });
    expect(two.items.map((m) => m.name)).toEqual([6, 5, 4, 3, 2].map((i) => `${marker} ${i}`));
    const past = await paging.findNumberedPage(messages.ContactMessage, {
      filter,
      sort: SORT,
      page: 99,
      perPage: 5,
    });
    expect(past.page).toBe(3);
    expect(past.items).toHaveLength(2);
    const none = await paging.findNumberedPage(messages.ContactMessage, {
      filter: { subject: 'nothing here' },
      sort: SORT,
      page: 1,
      perPage: 5,
    });
    expect(none).toMatchObject({ items: [], page: 1, pageCount: 1, total: 0 });
  });

  it('streams every record in order with a projection', async () => {
    const marker = 'stream';
    await addMessages(marker, 9);
    const names: string[] = [];
    for await (const m of paging.streamRecords(messages.ContactMessage, {
      filter: { subject: marker },
      sort: { id: 1 },
      fields: ['name'],
      batchSize: 2,
    }))
      names.push((m as { name: string }).name);
    expect(names).toEqual(Array.from({ length: 9 }, (_, i) => `${marker} ${i}`));
  });
});
