import { expect, test } from '@playwright/test';

import {
  disposeRoles,
  expectEntity,
  expectError,
  expectFieldErrors,
  expectJson,
  expectList,
  files,
  type Multipart,
  type Roles,
  roles,
  SAME_ORIGIN,
  siteDay,
  unique,
} from './helpers';

/**
 * Everything that touches global state, in order: the theme (one record; its weekly
 * rotation decides the featured track), the featured flag, and at the end the deletion of
 * every track. No other /api suite reads or writes tracks or the theme.
 */
test.describe.configure({ mode: 'serial' });

let r: Roles;
test.beforeAll(async () => {
  r = await roles();
});
test.afterAll(async () => {
  await disposeRoles(r);
});

const MISSING_FILES = 'Cover image and audio file are required. Make sure both files are selected.';

type Track = {
  id: number;
  title: string;
  artist: string;
  album: string | null;
  type: string;
  duration: string;
  coverImage: string;
  audioFile: string;
  featured: boolean;
  createdAt: string;
};

const postTrack = (multipart: Multipart) =>
  r.admin.post('/api/admin/tracks', { multipart, headers: SAME_ORIGIN });
const putTrack = (id: number, multipart: Multipart) =>
  r.admin.put(`/api/admin/tracks/${id}`, { multipart, headers: SAME_ORIGIN });
const toggle = (id: number, data: unknown) =>
  r.admin.put(`/api/admin/tracks/${id}`, { data, headers: SAME_ORIGIN });

async function listTracks(): Promise<Track[]> {
  return expectList(await expectJson(await r.anon.get('/api/tracks'), 200), 'track') as Track[];
}

let created: Track;

test.describe('theme', () => {
  const valid = {
    primary: 'hsl(200, 90%, 50%)',
    variant: 'tint',
    appearance: 'light',
    radius: 1.2,
    headerFont: 'Audiowide',
    bodyFont: 'Lato',
    heroTitle: 'API Hero',
    heroText: 'Set through the API.',
    footerText: 'Footer from the API.',
  };

  test('GET /api/admin/theme answers the same settings as the public /api/theme', async () => {
    const admin = await expectJson(await r.admin.get('/api/admin/theme'), 200);
    const pub = await expectJson(await r.anon.get('/api/theme'), 200);
    expect(admin).toEqual(pub);
  });

  test('POST saves the whole theme and answers it; the site reads it back', async () => {
    const before = (await expectJson(await r.admin.get('/api/admin/theme'), 200)) as Record<
      string,
      unknown
    >;
    const saved = await expectJson(
      await r.admin.post('/api/admin/theme', { data: valid, headers: SAME_ORIGIN }),
      200,
    );
    // weeklyRotation was not sent: it keeps its value.
    expect(saved).toEqual({ ...valid, weeklyRotation: before.weeklyRotation });
    expect(await expectJson(await r.anon.get('/api/theme'), 200)).toEqual(saved);
    // Back to the default settings for the other suites.
    await expectJson(
      await r.admin.post('/api/admin/theme', {
        data: {
          primary: 'hsl(347, 100%, 56%)',
          variant: 'vibrant',
          appearance: 'dark',
          radius: 0.5,
          headerFont: 'Orbitron',
          bodyFont: 'Inter',
          heroTitle: before.heroTitle,
          heroText: before.heroText,
          footerText: before.footerText,
        },
        headers: SAME_ORIGIN,
      }),
      200,
    );
  });

  test('radius must be within 0..2', async () => {
    for (const radius of [-0.1, 2.1, 'big']) {
      await expectFieldErrors(
        await r.admin.post('/api/admin/theme', {
          data: { ...valid, radius },
          headers: SAME_ORIGIN,
        }),
        { radius: null },
      );
    }
    await expectJson(
      await r.admin.post('/api/admin/theme', {
        data: { ...valid, radius: 0 },
        headers: SAME_ORIGIN,
      }),
      200,
    );
    await expectJson(
      await r.admin.post('/api/admin/theme', {
        data: { ...valid, radius: 2 },
        headers: SAME_ORIGIN,
      }),
      200,
    );
  });

  test('fonts, variant, appearance and colour come from their sets', async () => {
    const response = await r.admin.post('/api/admin/theme', {
      data: {
        ...valid,
        headerFont: 'Comic Sans MS',
        bodyFont: 'Papyrus',
        variant: 'loud',
        appearance: 'sepia',
        primary: 'red; background: url(x)',
      },
      headers: SAME_ORIGIN,
    });
    await expectFieldErrors(response, {
      headerFont: null,
      bodyFont: null,
      variant: null,
      appearance: null,
      primary: 'Colour must be an hsl() value or a hex colour',
    });
  });

  test('a partial theme is refused (the whole object is required)', async () => {
    await expectFieldErrors(
      await r.admin.post('/api/admin/theme', {
        data: { primary: '#ff0066' },
        headers: SAME_ORIGIN,
      }),
      { variant: null, appearance: null, headerFont: null, bodyFont: null },
    );
  });

  test('malformed JSON 400, form body 415', async () => {
    await expectError(
      await r.admin.post('/api/admin/theme', {
        headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
        data: Buffer.from('{"primary": "#fff"'),
      }),
      400,
      'Malformed JSON body',
    );
    await expectError(
      await r.admin.post('/api/admin/theme', { form: { primary: '#fff' }, headers: SAME_ORIGIN }),
      415,
    );
  });
});

test('GET /api/tracks: every track, newest first, entity JSON shape', async () => {
  const tracks = await listTracks();
  expect(tracks.length).toBeGreaterThan(0);
  const times = tracks.map((t) => Date.parse(t.createdAt));
  expect([...times].sort((a, b) => b - a)).toEqual(times);
  await expectError(await r.anon.post('/api/tracks', { data: {}, headers: SAME_ORIGIN }), 405);
});

test('POST /api/admin/tracks: 201, files stored, duration read from the audio, listed first', async () => {
  const title = `Night Swim ${unique()}`;
  created = expectEntity(
    await expectJson(
      await postTrack({
        title,
        artist: 'Guest DJ',
        album: 'Tides',
        duration: '',
        featured: 'false',
        coverImage: files.cover(),
        audioFile: files.mp3(),
      }),
      201,
    ),
    'track',
  ) as Track;
  expect(created).toMatchObject({
    title,
    artist: 'Guest DJ',
    album: 'Tides',
    featured: false,
    type: 'Single',
  });
  expect(created.duration).toMatch(/^\d+:\d{2}$/);
  expect(created.coverImage).toMatch(/^\/uploads\/images\/[0-9a-f]{32}\.jpg$/);
  expect(created.audioFile).toMatch(/^\/uploads\/audio\/[0-9a-f]{32}\.mp3$/);
  expect((await r.anon.get(created.coverImage)).status()).toBe(200);
  expect((await r.anon.get(created.audioFile)).status()).toBe(200);
  expect((await listTracks())[0]!.id).toBe(created.id);
});

test('POST: artist defaults to the collective, album is optional, WAV and PNG are accepted', async () => {
  const track = (await expectJson(
    await postTrack({
      title: `Default Artist ${unique()}`,
      duration: '3:45',
      featured: 'false',
      type: 'EP',
      coverImage: files.png(),
      audioFile: files.wav(),
    }),
    201,
  )) as Track;
  expect(track.artist.length).toBeGreaterThan(0);
  expect(track).toMatchObject({ album: null, duration: '3:45', type: 'EP' });
  expect(track.audioFile).toMatch(/\.wav$/);
  expect(
    (await r.admin.delete(`/api/admin/tracks/${track.id}`, { headers: SAME_ORIGIN })).status(),
  ).toBe(204);
});

test('POST: both files are required', async () => {
  const noFiles = await expectFieldErrors(
    await postTrack({ title: 'No files', duration: '3:00', featured: 'false' }),
    { coverImage: null, audioFile: null },
  );
  expect(noFiles.error).toBe(MISSING_FILES);
  const noAudio = await expectFieldErrors(
    await postTrack({ title: 'No audio', featured: 'false', coverImage: files.cover() }),
    { audioFile: null },
  );
  expect(noAudio.error).toBe(MISSING_FILES);
  expect(noAudio.fields?.coverImage).toBeUndefined();
});

test('POST: 400 for a missing title, a bad duration and files of the wrong type', async () => {
  const before = (await listTracks()).length;
  await expectFieldErrors(
    await postTrack({
      title: '  ',
      duration: '3 minutes',
      featured: 'false',
      coverImage: files.notAnImage(),
      audioFile: { ...files.cover(), name: 'cover.mp3', mimeType: 'audio/mpeg' },
    }),
    {
      title: 'Title is required',
      duration: 'Duration must be MM:SS or H:MM:SS (e.g. 3:45 or 1:02:30)',
      coverImage: /JPEG, PNG, or WEBP/,
      audioFile: /MP3 or WAV/,
    },
  );
  await expectFieldErrors(
    await postTrack({
      title: 'Bad type',
      type: 'Mixtape',
      coverImage: files.cover(),
      audioFile: files.mp3(),
    }),
    { type: null },
  );
  expect((await listTracks()).length).toBe(before);
});

test('POST: 415 for a JSON body', async () => {
  await expectError(
    await r.admin.post('/api/admin/tracks', { data: { title: 'JSON' }, headers: SAME_ORIGIN }),
    415,
  );
});

test('PUT multipart without files keeps them (coverImageUrl / audioFileUrl)', async () => {
  const updated = expectEntity(
    await expectJson(
      await putTrack(created.id, {
        title: `${created.title} (extended)`,
        artist: 'Guest DJ',
        duration: '7:30',
        featured: 'false',
        coverImageUrl: created.coverImage,
        audioFileUrl: created.audioFile,
      }),
      200,
    ),
    'track',
  ) as Track;
  expect(updated).toMatchObject({
    id: created.id,
    title: `${created.title} (extended)`,
    album: null, // not sent: cleared, as the form does
    duration: '7:30',
    coverImage: created.coverImage,
    audioFile: created.audioFile,
    createdAt: created.createdAt,
  });
  created = updated;
});

test('PUT multipart with a new cover replaces it and deletes the old file', async () => {
  const updated = (await expectJson(
    await putTrack(created.id, {
      title: created.title,
      artist: created.artist,
      duration: created.duration,
      featured: 'false',
      coverImage: files.png(),
      audioFileUrl: created.audioFile,
    }),
    200,
  )) as Track;
  expect(updated.coverImage).not.toBe(created.coverImage);
  expect(updated.audioFile).toBe(created.audioFile);
  expect((await r.anon.get(created.coverImage)).status()).toBe(404);
  expect((await r.anon.get(updated.coverImage)).status()).toBe(200);
  created = updated;
});

test('PUT multipart: 400 for invalid fields, the track is unchanged', async () => {
  await expectFieldErrors(
    await putTrack(created.id, { title: '', duration: '99', coverImage: files.notAnImage() }),
    { title: 'Title is required', duration: null, coverImage: null },
  );
  const [again] = (await listTracks()).filter((t) => t.id === created.id);
  expect(again).toEqual(created);
});

test('PUT JSON { featured } toggles the flag; GET /api/tracks/featured follows', async () => {
  const on = (await expectJson(await toggle(created.id, { featured: true }), 200)) as Track;
  expect(on).toMatchObject({ id: created.id, featured: true, title: created.title });
  const featured = expectEntity(
    await expectJson(await r.anon.get('/api/tracks/featured'), 200),
    'track',
  );
  expect(featured.featured).toBe(true);
  expect(featured.id).toBe(created.id); // the newest featured track comes first
  const off = (await expectJson(await toggle(created.id, { featured: false }), 200)) as Track;
  expect(off.featured).toBe(false);
});

test('PUT JSON: 400 for a non-boolean featured or malformed JSON; 404 for an unknown id', async () => {
  await expectFieldErrors(await toggle(created.id, { featured: 'yes' }), { featured: null });
  await expectFieldErrors(await toggle(created.id, {}), { featured: null });
  await expectError(
    await r.admin.put(`/api/admin/tracks/${created.id}`, {
      headers: { ...SAME_ORIGIN, 'Content-Type': 'application/json' },
      data: Buffer.from('{"featured": tru'),
    }),
    400,
    'Malformed JSON body',
  );
  await expectError(await toggle(999999, { featured: true }), 404, 'Track not found');
  await expectError(await toggle(Number.NaN, { featured: true }), 404);
});

test('POST randomize-featured: exactly one featured track, answered with its title', async () => {
  // Feature two tracks first: afterwards only one may be.
  const all = await listTracks();
  for (const t of all.slice(0, 2)) await expectJson(await toggle(t.id, { featured: true }), 200);
  const picked = expectEntity(
    await expectJson(
      await r.admin.post('/api/admin/tracks/randomize-featured', { headers: SAME_ORIGIN }),
      200,
    ),
    'track',
  );
  expect(typeof picked.title).toBe('string');
  expect(picked.featured).toBe(true);
  const featured = (await listTracks()).filter((t) => t.featured);
  expect(featured.map((t) => t.id)).toEqual([picked.id]);
  expect(((await expectJson(await r.anon.get('/api/tracks/featured'), 200)) as Track).id).toBe(
    picked.id,
  );
});

test('GET /api/tracks/featured is a 404 when no track is featured', async () => {
  for (const t of (await listTracks()).filter((x) => x.featured)) {
    await expectJson(await toggle(t.id, { featured: false }), 200);
  }
  await expectError(await r.anon.get('/api/tracks/featured'), 404, 'No featured track available.');
});

test("weekly rotation: the featured track is this week's pick even with none flagged", async () => {
  const theme = (await expectJson(await r.admin.get('/api/admin/theme'), 200)) as Record<
    string,
    unknown
  >;
  await expectJson(
    await r.admin.post('/api/admin/theme', {
      data: { ...theme, weeklyRotation: true },
      headers: SAME_ORIGIN,
    }),
    200,
  );
  try {
    const pick = expectEntity(
      await expectJson(await r.anon.get('/api/tracks/featured'), 200),
      'track',
    );
    expect((await listTracks()).map((t) => t.id)).toContain(pick.id);
  } finally {
    await expectJson(
      await r.admin.post('/api/admin/theme', {
        data: { ...theme, weeklyRotation: false },
        headers: SAME_ORIGIN,
      }),
      200,
    );
  }
  await expectError(await r.anon.get('/api/tracks/featured'), 404);
});

test.describe('members-only tracks (decision 017)', () => {
  let members: Track;
  let early: Track;
  let released: Track;

  test('POST with visibility and publicAt; bad values are refused and change nothing', async () => {
    const before = (await listTracks()).length;
    await expectFieldErrors(
      await postTrack({
        title: `Bad visibility ${unique()}`,
        visibility: 'friends',
        publicAt: '2026-02-30',
        coverImage: files.cover(),
        audioFile: files.mp3(),
      }),
      {
        visibility: 'Visibility must be "public" or "members"',
        publicAt: 'Public on must be a date (YYYY-MM-DD)',
      },
    );
    expect((await listTracks()).length).toBe(before);

    const post = async (title: string, extra: Multipart) =>
      expectEntity(
        await expectJson(
          await postTrack({ title, coverImage: files.cover(), audioFile: files.mp3(), ...extra }),
          201,
        ),
        'track',
      ) as Track & { visibility: string; publicAt: string | null; locked: boolean };
    members = await post(`Members Only ${unique()}`, { visibility: 'members' });
    expect(members).toMatchObject({ visibility: 'members', publicAt: null, locked: false });
    early = await post(`Early Access ${unique()}`, {
      visibility: 'members',
      publicAt: siteDay(2),
    });
    expect(early).toMatchObject({ visibility: 'members', publicAt: siteDay(2) });
    released = await post(`Released ${unique()}`, {
      visibility: 'members',
      publicAt: siteDay(-2),
    });
  });

  test('anonymous callers get locked tracks without audioFile; members and admins get them whole', async () => {
    for (const [who, ctx, locked] of [
      ['anonymous', r.anon, true],
      ['member', r.user, false],
      ['admin', r.admin, false],
    ] as const) {
      const list = expectList(await expectJson(await ctx.get('/api/tracks'), 200), 'track');
      const byId = new Map(list.map((t) => [t.id, t]));
      for (const track of [members, early]) {
        expect(byId.get(track.id)?.locked, `${who}: ${track.title}`).toBe(locked);
        const one = expectEntity(
          await expectJson(await ctx.get(`/api/tracks/${track.id}`), 200),
          'track',
        );
        expect(one.locked).toBe(locked);
        expect('audioFile' in one).toBe(!locked);
      }
      // Early access over: public for everyone.
      expect(byId.get(released.id)).toMatchObject({ locked: false, audioFile: released.audioFile });
    }
    const anonList = await (await r.anon.get('/api/tracks')).text();
    expect(anonList).not.toContain(members.audioFile);
    expect(anonList).not.toContain(early.audioFile);
    await expectError(await r.anon.get('/api/tracks/999999'), 404, 'Track not found');
    await expectError(await r.anon.get('/api/tracks/abc'), 404, 'Track not found');
  });

  test('the audio file: 401 without a session (Range, HEAD and conditional requests too), private for members', async () => {
    for (const track of [members, early]) {
      const full = await r.anon.get(track.audioFile);
      expect(full.status()).toBe(401);
      expect(full.headers()['cache-control']).toBe('private, no-store');
      expect((await full.body()).length).toBeLessThan(100);
      const ranged = await r.anon.get(track.audioFile, { headers: { Range: 'bytes=0-99' } });
      expect(ranged.status()).toBe(401);
      expect((await r.anon.head(track.audioFile)).status()).toBe(401);
      // Another spelling of the same path is the same file, and the same answer.
      const spelled = track.audioFile.replace('/uploads/audio/', '/uploads/%61udio/');
      expect((await r.anon.get(spelled)).status()).toBe(401);

      for (const ctx of [r.user, r.admin]) {
        const ok = await ctx.get(track.audioFile);
        expect(ok.status()).toBe(200);
        expect(ok.headers()['cache-control']).toMatch(/^private/);
        const etag = ok.headers()['etag']!;
        const part = await ctx.get(track.audioFile, { headers: { Range: 'bytes=0-99' } });
        expect(part.status()).toBe(206);
        expect((await part.body()).length).toBe(100);
        // A revalidation without the session is refused, not answered 304.
        const conditional = await r.anon.get(track.audioFile, {
          headers: { 'If-None-Match': etag },
        });
        expect(conditional.status()).toBe(401);
      }
    }
    const open = await r.anon.get(released.audioFile, { headers: { Range: 'bytes=0-99' } });
    expect(open.status()).toBe(206);
    expect(open.headers()['cache-control']).toMatch(/^public, max-age=0/);
    // Covers are not secret: shown with the locked card.
    expect((await r.anon.get(members.coverImage)).status()).toBe(200);
  });

  test('pages and JSON-LD never give an anonymous visitor the audio file', async () => {
    for (const path of ['/', '/music', `/music?track=${members.id}`, `/music?q=Members`]) {
      const html = await (await r.anon.get(path)).text();
      expect(html, path).not.toContain(members.audioFile);
      expect(html, path).not.toContain(early.audioFile);
    }
    const music = await (await r.anon.get('/music')).text();
    expect(music).toContain(members.title);
    expect(music).toContain('Members only');
    expect(music).toContain(`Public on `);
    expect(music).toContain(`/auth?redirectTo=${encodeURIComponent(`/music?track=${members.id}`)}`);
    const memberMusic = await (await r.user.get('/music')).text();
    expect(memberMusic).toContain(members.audioFile);
    // The render memo and shared caches keep the two apart, in both orders.
    const after = await r.anon.get('/music');
    expect(await after.text()).not.toContain(members.audioFile);
    expect(after.headers()['cache-control']).toMatch(/^public/);
    const memberAgain = await r.user.get('/music');
    expect(await memberAgain.text()).toContain(members.audioFile);
    expect(memberAgain.headers()['cache-control']).toBe('private, no-store');
  });

  test('PUT keeps visibility when not sent, and back to public clears the date', async () => {
    const kept = (await expectJson(
      await putTrack(early.id, { title: early.title }),
      200,
    )) as Record<string, unknown>;
    expect(kept).toMatchObject({ visibility: 'members', publicAt: siteDay(2) });
    const opened = (await expectJson(
      await putTrack(early.id, { title: early.title, visibility: 'public' }),
      200,
    )) as Record<string, unknown>;
    expect(opened).toMatchObject({ visibility: 'public', publicAt: null });
    expect((await r.anon.get(early.audioFile)).status()).toBe(200);
    for (const track of [members, early, released]) {
      expect(
        (await r.admin.delete(`/api/admin/tracks/${track.id}`, { headers: SAME_ORIGIN })).status(),
      ).toBe(204);
    }
  });
});

test.describe('mixes: tracklist, description, durationSeconds (decision 034)', () => {
  type Mix = Track & {
    durationSeconds: number;
    description: string | null;
    tracklist: { start: number; artist: string; title: string; label: string | null }[];
  };
  const TRACKLIST = [
    '0:00 Night Shore - Intro',
    '',
    '4:05 Floorplan - Never Grow Old [M-Plant]',
    '1:02:30 Robert Hood - Minus - Edit [M-Plant]',
  ].join('\n');
  const ROWS = [
    { start: 0, artist: 'Night Shore', title: 'Intro', label: null },
    { start: 245, artist: 'Floorplan', title: 'Never Grow Old', label: 'M-Plant' },
    { start: 3750, artist: 'Robert Hood', title: 'Minus - Edit', label: 'M-Plant' },
  ];
  let mix: Mix;

  test('POST a Mix: the tracklist text is stored structured, h:mm:ss duration in seconds', async () => {
    mix = expectEntity(
      await expectJson(
        await postTrack({
          title: `Radio ${unique()}`,
          type: 'Mix',
          duration: '1:30:00',
          description: 'Two hours of Detroit.\n\nRecorded live.',
          tracklist: TRACKLIST,
          coverImage: files.cover(),
          audioFile: files.mp3(),
        }),
        201,
      ),
      'track',
    ) as Mix;
    expect(mix).toMatchObject({
      type: 'Mix',
      duration: '1:30:00',
      durationSeconds: 5400,
      description: 'Two hours of Detroit.\n\nRecorded live.',
      tracklist: ROWS,
    });
    const read = expectEntity(
      await expectJson(await r.anon.get(`/api/tracks/${mix.id}`), 200),
      'track',
    );
    expect(read).toMatchObject({ durationSeconds: 5400, tracklist: ROWS });
    const listed = (await listTracks()).find((t) => t.id === mix.id) as Mix | undefined;
    expect(listed?.tracklist).toEqual(ROWS);
  });

  test('every track carries tracklist [] and durationSeconds; 62:30 is stored as 1:02:30', async () => {
    const single = expectEntity(
      await expectJson(
        await postTrack({
          title: `Long ${unique()}`,
          duration: '62:30',
          coverImage: files.cover(),
          audioFile: files.mp3(),
        }),
        201,
      ),
      'track',
    ) as Mix;
    expect(single).toMatchObject({
      type: 'Single',
      duration: '1:02:30',
      durationSeconds: 3750,
      description: null,
      tracklist: [],
    });
    // No duration typed: whole seconds read from the audio file.
    const read = expectEntity(
      await expectJson(
        await postTrack({
          title: `Read ${unique()}`,
          coverImage: files.cover(),
          audioFile: files.mp3(),
        }),
        201,
      ),
      'track',
    ) as Mix;
    expect(read.durationSeconds).toBeGreaterThan(0);
    expect(read.duration).toMatch(/^\d+:\d{2}$/);
    for (const t of [single, read]) {
      expect(
        (await r.admin.delete(`/api/admin/tracks/${t.id}`, { headers: SAME_ORIGIN })).status(),
      ).toBe(204);
    }
  });

  test('POST: 400 with every bad line numbered, nothing created', async () => {
    const before = (await listTracks()).length;
    const body = await expectFieldErrors(
      await postTrack({
        title: `Bad ${unique()}`,
        type: 'Mix',
        tracklist: ['0:00 A - B', 'no time here', '', '0:00 C - D', '5:00 E F'].join('\n'),
        coverImage: files.cover(),
        audioFile: files.mp3(),
      }),
      { tracklist: null },
    );
    expect(body.fields?.tracklist).toEqual([
      'Line 2: "no" is not a start time: write m:ss or h:mm:ss (e.g. 4:05 or 1:02:30)',
      'Line 4: starts at 0:00, not after line 1 (0:00): start times must go up',
      'Line 5: separate the artist and the title with " - " (TIME ARTIST - TITLE [LABEL], e.g. 1:02:30 Floorplan - Never Grow Old [M-Plant])',
    ]);
    await expectFieldErrors(
      await postTrack({
        title: `Past the end ${unique()}`,
        duration: '10:00',
        tracklist: '0:00 A - B\n10:01 C - D',
        coverImage: files.cover(),
        audioFile: files.mp3(),
      }),
      { tracklist: 'Line 2: starts at 10:01, after the end of the track (10:00)' },
    );
    // No duration typed: the one read from the audio (short.mp3, 0:03) bounds the rows too.
    await expectFieldErrors(
      await postTrack({
        title: `Past the audio ${unique()}`,
        type: 'Mix',
        tracklist: '0:00 A - B\n0:02 C - D\n0:05 E - F',
        coverImage: files.cover(),
        audioFile: files.mp3(),
      }),
      { tracklist: 'Line 3: starts at 0:05, after the end of the track (0:03)' },
    );
    await expectFieldErrors(
      await postTrack({
        title: `Old type ${unique()}`,
        type: 'Live',
        coverImage: files.cover(),
        audioFile: files.mp3(),
      }),
      { type: null },
    );
    expect((await listTracks()).length).toBe(before);
  });

  test('PUT: tracklist and description kept when not sent, replaced or cleared when sent', async () => {
    const kept = (await expectJson(await putTrack(mix.id, { title: mix.title }), 200)) as Mix;
    expect(kept).toMatchObject({
      tracklist: ROWS,
      description: mix.description,
      durationSeconds: 5400,
    });
    const replaced = (await expectJson(
      await putTrack(mix.id, {
        title: mix.title,
        tracklist: '0:10 X - Y [Z]',
        description: 'New notes',
      }),
      200,
    )) as Mix;
    expect(replaced).toMatchObject({
      tracklist: [{ start: 10, artist: 'X', title: 'Y', label: 'Z' }],
      description: 'New notes',
    });
    await expectFieldErrors(await putTrack(mix.id, { title: mix.title, tracklist: '1:00 A' }), {
      tracklist: /^Line 1: /,
    });
    // Past the stored length (1:30:00), with no duration sent: refused, the rows kept.
    await expectFieldErrors(
      await putTrack(mix.id, { title: mix.title, tracklist: '0:10 X - Y\n1:30:01 A - B' }),
      { tracklist: 'Line 2: starts at 1:30:01, after the end of the track (1:30:00)' },
    );
    expect(
      ((await expectJson(await r.anon.get(`/api/tracks/${mix.id}`), 200)) as Mix).tracklist,
    ).toEqual([{ start: 10, artist: 'X', title: 'Y', label: 'Z' }]);
    const cleared = (await expectJson(
      await putTrack(mix.id, { title: mix.title, tracklist: '', description: '' }),
      200,
    )) as Mix;
    expect(cleared).toMatchObject({ tracklist: [], description: null });
  });
});

test('DELETE: 204, files removed, then 404', async () => {
  const response = await r.admin.delete(`/api/admin/tracks/${created.id}`, {
    headers: SAME_ORIGIN,
  });
  expect(response.status()).toBe(204);
  expect((await r.anon.get(created.coverImage)).status()).toBe(404);
  expect((await r.anon.get(created.audioFile)).status()).toBe(404);
  expect((await listTracks()).map((t) => t.id)).not.toContain(created.id);
  await expectError(
    await r.admin.delete(`/api/admin/tracks/${created.id}`, { headers: SAME_ORIGIN }),
    404,
  );
  await expectError(await putTrack(created.id, { title: 'Ghost' }), 404);
});

test('randomize-featured is a 404 when there are no tracks', async () => {
  for (const t of await listTracks()) {
    expect(
      (await r.admin.delete(`/api/admin/tracks/${t.id}`, { headers: SAME_ORIGIN })).status(),
    ).toBe(204);
  }
  expect(await expectJson(await r.anon.get('/api/tracks'), 200)).toEqual([]);
  await expectError(
    await r.admin.post('/api/admin/tracks/randomize-featured', { headers: SAME_ORIGIN }),
    404,
    'There are no tracks to feature',
  );
  await expectError(await r.anon.get('/api/tracks/featured'), 404);
});
