import { expect, test } from '@playwright/test';

import {
  expectEntity,
  expectError,
  expectFieldErrors,
  expectJson,
  expectList,
  SAME_ORIGIN,
  unique,
  useRoles,
} from './helpers';

const r = useRoles();

test.describe('subscribers', () => {
  test('GET lists them newest first; DELETE answers 204, then 404', async () => {
    const email = `gone-${unique()}@example.com`;
    await expectJson(
      await r.anon.post('/api/subscribe', {
        data: { name: 'Gone Soon', email },
        headers: SAME_ORIGIN,
      }),
      201,
    );
    const list = expectList(
      await expectJson(await r.admin.get('/api/admin/subscribers'), 200),
      'subscriber',
    );
    // The sign-up's answer names no stored record (decision 029): the admin list does.
    const created = list.find((s) => s.email === email) as { id: number };
    expect(created).toBeTruthy();
    const times = list.map((s) => Date.parse(String(s.createdAt)));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const deleted = await r.admin.delete(`/api/admin/subscribers/${created.id}`, {
      headers: SAME_ORIGIN,
    });
    expect(deleted.status()).toBe(204);
    expect(await deleted.text()).toBe('');
    const after = (await expectJson(await r.admin.get('/api/admin/subscribers'), 200)) as {
      id: number;
    }[];
    expect(after.map((s) => s.id)).not.toContain(created.id);
    await expectError(
      await r.admin.delete(`/api/admin/subscribers/${created.id}`, { headers: SAME_ORIGIN }),
      404,
      'Subscriber not found',
    );
  });
});

test.describe('messages', () => {
  test('GET lists them newest first; DELETE answers 204, then 404', async () => {
    const created = (await expectJson(
      await r.anon.post('/api/contact', {
        data: {
          name: 'Press Person',
          email: `press-${unique()}@example.com`,
          subject: 'Media Request',
          message: 'Could we interview the collective next week?',
        },
        headers: SAME_ORIGIN,
      }),
      201,
    )) as { id: number };
    const list = expectList(
      await expectJson(await r.admin.get('/api/admin/messages'), 200),
      'message',
    );
    expect(list[0]!.id).toBeGreaterThanOrEqual(created.id);
    expect(list.map((m) => m.id)).toContain(created.id);

    expect(
      (
        await r.admin.delete(`/api/admin/messages/${created.id}`, { headers: SAME_ORIGIN })
      ).status(),
    ).toBe(204);
    await expectError(
      await r.admin.delete(`/api/admin/messages/${created.id}`, { headers: SAME_ORIGIN }),
      404,
      'Message not found',
    );
  });
});

test.describe('shows', () => {
  const valid = () => ({
    title: `Boardwalk Night ${unique()}`,
    venue: 'Convention Hall',
    location: 'Asbury Park, NJ',
    date: '2030-07-04',
    time: '9:00 PM',
    ticketUrl: 'https://tickets.example.com/boardwalk',
    description: 'Fireworks and modular synths.',
  });

  test('POST creates (201), PUT replaces (200), DELETE removes (204), then 404', async () => {
    const input = valid();
    const created = expectEntity(
      await expectJson(
        await r.admin.post('/api/admin/shows', { data: input, headers: SAME_ORIGIN }),
        201,
      ),
      'show',
    );
    expect(created).toMatchObject(input);
    const listed = (await expectJson(await r.anon.get('/api/shows'), 200)) as { id: number }[];
    expect(listed.map((s) => s.id)).toContain(created.id);

    const changed = { ...input, venue: 'The Stone Pony', ticketUrl: '', description: '' };
    const updated = expectEntity(
      await expectJson(
        await r.admin.put(`/api/admin/shows/${created.id}`, {
          data: changed,
          headers: SAME_ORIGIN,
        }),
        200,
      ),
      'show',
    );
    expect(updated).toMatchObject({
      id: created.id,
      venue: 'The Stone Pony',
      ticketUrl: null,
      description: null,
    });
    expect(updated.createdAt).toBe(created.createdAt);

    expect(
      (await r.admin.delete(`/api/admin/shows/${created.id}`, { headers: SAME_ORIGIN })).status(),
    ).toBe(204);
    await expectError(
      await r.admin.delete(`/api/admin/shows/${created.id}`, { headers: SAME_ORIGIN }),
      404,
    );
    await expectError(
      await r.admin.put(`/api/admin/shows/${created.id}`, { data: changed, headers: SAME_ORIGIN }),
      404,
      'Show not found',
    );
  });

  test('ticketUrl and description are optional', async () => {
    const { ticketUrl: _t, description: _d, ...required } = valid();
    const created = expectEntity(
      await expectJson(
        await r.admin.post('/api/admin/shows', { data: required, headers: SAME_ORIGIN }),
        201,
      ),
      'show',
    );
    expect(created).toMatchObject({ ticketUrl: null, description: null });
    await r.admin.delete(`/api/admin/shows/${created.id}`, { headers: SAME_ORIGIN });
  });

  test('400 with the form messages for every required field', async () => {
    await expectFieldErrors(
      await r.admin.post('/api/admin/shows', { data: {}, headers: SAME_ORIGIN }),
      {
        title: 'Title is required',
        venue: 'Venue is required',
        location: 'Location is required',
        date: 'Date is required',
        time: 'Time is required',
      },
    );
    await expectFieldErrors(
      await r.admin.post('/api/admin/shows', {
        data: { title: ' ', venue: '', location: '', date: '', time: '  ' },
        headers: SAME_ORIGIN,
      }),
      {
        title: 'Title is required',
        venue: 'Venue is required',
        location: 'Location is required',
        date: 'Date is required',
        time: 'Time is required',
      },
    );
  });

  test('400 for a bad ticket URL or date', async () => {
    await expectFieldErrors(
      await r.admin.post('/api/admin/shows', {
        data: { ...valid(), ticketUrl: 'javascript:alert(1)', date: '2030-02-30' },
        headers: SAME_ORIGIN,
      }),
      { ticketUrl: 'Must be a valid URL', date: 'Date must be YYYY-MM-DD' },
    );
    await expectFieldErrors(
      await r.admin.post('/api/admin/shows', {
        data: { ...valid(), date: '07/04/2030' },
        headers: SAME_ORIGIN,
      }),
      { date: 'Date must be YYYY-MM-DD' },
    );
  });

  test('PUT validates too, and an unknown id is 404 before the body is read', async () => {
    const created = (await expectJson(
      await r.admin.post('/api/admin/shows', { data: valid(), headers: SAME_ORIGIN }),
      201,
    )) as { id: number };
    await expectFieldErrors(
      await r.admin.put(`/api/admin/shows/${created.id}`, {
        data: { ...valid(), title: '' },
        headers: SAME_ORIGIN,
      }),
      { title: 'Title is required' },
    );
    await expectError(
      await r.admin.put('/api/admin/shows/999999', {
        headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
        data: Buffer.from('{oops'),
      }),
      404,
    );
    await expectError(
      await r.admin.put(`/api/admin/shows/${created.id}`, {
        headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
        data: Buffer.from('{oops'),
      }),
      400,
      'Malformed JSON body',
    );
    await r.admin.delete(`/api/admin/shows/${created.id}`, { headers: SAME_ORIGIN });
  });

  test('an oversized JSON body is a 413', async () => {
    await expectError(
      await r.admin.post('/api/admin/shows', {
        data: { ...valid(), description: 'd'.repeat(110 * 1024) },
        headers: SAME_ORIGIN,
      }),
      413,
    );
  });
});
