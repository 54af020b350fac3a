import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';
import { parseBuffer } from 'music-metadata';

import type { PeaksJSON } from '../../app/types/peaks';
import { writeWav } from '../helpers/wav';
import { expectJson, files, type Multipart, SAME_ORIGIN, unique, useRoles } from './helpers';

/**
 * A WAV through the admin API (decision 035): the track is 'processing' (not playable, its
 * upload served to admins only), then 'ready' with a 192 kbps MP3 that listeners get, the WAV
 * kept as the original (an admin download, a 404 for anyone else), and its waveform at
 * /api/tracks/{id}/peaks: cacheable with an ETag when public, locked like the audio when
 * members-only.
 */
const r = useRoles();

/** A track as the admin API answers it: `audioFile` is the upload while it is processing. */
type Track = { id: number; audioFile: string; audioStatus: string; durationSeconds: number };
/** As the public API answers it: no audio URL until the stream is ready. */
type PublicTrack = Omit<Track, 'audioFile'> & { audioFile: string | null };

/** What a visitor's API says while a track's stream is not ready: why, and no audio URL. */
function expectNoAudioUntilReady(track: PublicTrack): void {
  if (track.audioStatus !== 'ready') expect(track.audioFile).toBeNull();
  else expect(track.audioFile).toMatch(/^\/uploads\/audio\/.+\.mp3$/);
}

function wavPart(seconds: number, burst: number): Multipart[string] {
  const file = path.join(os.tmpdir(), `media-jobs-${unique()}.wav`);
  writeWav(file, { seconds, sampleRate: 44100, channels: 2, bursts: [burst] });
  const buffer = fs.readFileSync(file);
  fs.rmSync(file);
  return { name: 'set.wav', mimeType: 'audio/wav', buffer };
}

const postTrack = (multipart: Multipart) =>
  r.admin.post('/api/admin/tracks', { multipart, headers: SAME_ORIGIN });

async function untilReady(id: number): Promise<Track> {
  let track: PublicTrack | null = null;
  await expect
    .poll(
      async () => {
        track = (await (await r.anon.get(`/api/tracks/${id}`)).json()) as PublicTrack;
        // Every answer on the way: no URL (a 404) while processing, the stream once ready.
        expectNoAudioUntilReady(track);
        return track.audioStatus;
      },
      { timeout: 60_000, intervals: [250] },
    )
    .toBe('ready');
  const ready = track!;
  return { ...ready, audioFile: ready.audioFile! };
}

test('a WAV upload: processing, then a 192 kbps stream, the original for admins only, and its peaks', async () => {
  test.setTimeout(90_000);
  const created = (await expectJson(
    await postTrack({
      title: `Processing ${unique()}`,
      featured: 'false',
      coverImage: files.cover(),
      audioFile: wavPart(6, 4),
    }),
    201,
  )) as Track;
  expect(created.audioStatus).toBe('processing');
  const original = created.audioFile;
  expect(original).toMatch(/\.wav$/);
  // The upload is never a visitor's, processing or not; an admin may have it.
  expect((await r.anon.get(original)).status()).toBe(404);
  expect((await r.user.get(original)).status()).toBe(404);

  const ready = await untilReady(created.id);
  expect(ready.audioFile).toMatch(/^\/uploads\/audio\/[0-9a-f]{32}\.mp3$/);
  expect(ready.durationSeconds).toBe(6);

  const stream = await r.anon.get(ready.audioFile);
  expect(stream.status()).toBe(200);
  expect(stream.headers()['content-type']).toBe('audio/mpeg');
  const { format } = await parseBuffer(
    await stream.body(),
    { mimeType: 'audio/mpeg' },
    { duration: true },
  );
  expect(format.bitrate).toBe(192_000);
  expect(Math.abs((format.duration ?? 0) - 6)).toBeLessThan(0.1);
  const ranged = await r.anon.get(ready.audioFile, { headers: { Range: 'bytes=0-99' } });
  expect(ranged.status()).toBe(206);

  // The original: 404 for visitors and members, a download for admins.
  for (const who of [r.anon, r.user]) expect((await who.get(original)).status()).toBe(404);
  expect((await r.admin.get(original)).status()).toBe(200);
  const download = await r.admin.get(`/admin/tracks/${created.id}/original`);
  expect(download.status()).toBe(200);
  expect(download.headers()['content-disposition']).toMatch(
    /^attachment; filename=".*\(original\)\.wav"/,
  );
  expect(download.headers()['cache-control']).toBe('private, no-store');
  expect((await download.body()).subarray(0, 4).toString('latin1')).toBe('RIFF');
  const refused = await r.anon.get(`/admin/tracks/${created.id}/original`, { maxRedirects: 0 });
  expect(refused.status()).toBe(302);
  expect(refused.headers()['location']).toMatch(/^\/auth\?redirectTo=/);
  const notAdmin = await r.user.get(`/admin/tracks/${created.id}/original`, { maxRedirects: 0 });
  expect(notAdmin.status()).toBe(302);
  expect(notAdmin.headers()['location']).toBe('/');

  // The waveform.
  const res = await r.anon.get(`/api/tracks/${created.id}/peaks`);
  expect(res.status()).toBe(200);
  expect(res.headers()['cache-control']).toBe(
    'public, max-age=0, s-maxage=30, stale-while-revalidate=60',
  );
  const etag = res.headers()['etag'];
  expect(etag).toBeTruthy();
  const peaks = (await res.json()) as PeaksJSON;
  expect(peaks).toMatchObject({ version: 2, channels: 1, sample_rate: 44100, bits: 8 });
  expect(peaks.length).toBeGreaterThanOrEqual(1000);
  expect(peaks.length).toBeLessThanOrEqual(2000);
  let best = 1;
  for (let i = 3; i < peaks.data.length; i += 2) if (peaks.data[i]! > peaks.data[best]!) best = i;
  expect((best - 1) / 2).toBe(Math.floor((4 * peaks.sample_rate) / peaks.samples_per_pixel));
  const again = await r.anon.get(`/api/tracks/${created.id}/peaks`, {
    headers: { 'If-None-Match': etag! },
  });
  expect(again.status()).toBe(304);

  // Replacing the audio removes the old stream, the original and their peaks.
  const replaced = await r.admin.put(`/api/admin/tracks/${created.id}`, {
    multipart: { title: `Replaced ${unique()}`, featured: 'false', audioFile: files.mp3() },
    headers: SAME_ORIGIN,
  });
  expect(replaced.status()).toBe(200);
  const after = (await replaced.json()) as Track;
  expect(after.audioStatus).toBe('ready'); // an MP3 at or below 320 kbps plays as it is
  expect((await r.admin.get(original)).status()).toBe(404);
  expect((await r.admin.get(ready.audioFile)).status()).toBe(404);
  await expect
    .poll(async () => (await r.anon.get(`/api/tracks/${created.id}/peaks`)).status(), {
      timeout: 30_000,
    })
    .toBe(200);
  expect(
    (await r.admin.delete(`/api/admin/tracks/${created.id}`, { headers: SAME_ORIGIN })).status(),
  ).toBe(204);
  expect((await r.anon.get(`/api/tracks/${created.id}/peaks`)).status()).toBe(404);
});

test('peaks of a members-only track are locked exactly like its audio', async () => {
  test.setTimeout(60_000);
  const created = (await expectJson(
    await postTrack({
      title: `Members peaks ${unique()}`,
      featured: 'false',
      visibility: 'members',
      coverImage: files.cover(),
      audioFile: files.mp3(),
    }),
    201,
  )) as Track;
  const url = `/api/tracks/${created.id}/peaks`;
  await expect.poll(async () => (await r.user.get(url)).status(), { timeout: 30_000 }).toBe(200);
  const member = await r.user.get(url);
  expect(member.headers()['cache-control']).toBe('private, no-cache');
  expect(member.headers()['vary']).toMatch(/Cookie/);
  for (const [path, name] of [
    [url, 'peaks'],
    [created.audioFile, 'audio'],
  ] as const) {
    const anon = await r.anon.get(path, {
      headers: { 'If-None-Match': member.headers()['etag'] ?? '*' },
    });
    expect(anon.status(), name).toBe(401);
    expect(anon.headers()['cache-control'], name).toBe('private, no-store');
    expect(anon.headers()['vary'], name).toMatch(/Cookie/);
  }
  expect((await r.anon.get('/api/tracks/999999999/peaks')).status()).toBe(404);
  expect((await r.anon.get('/api/tracks/not-a-number/peaks')).status()).toBe(404);
  expect(
    (await r.admin.delete(`/api/admin/tracks/${created.id}`, { headers: SAME_ORIGIN })).status(),
  ).toBe(204);
});

test('a WAV that cannot be decoded: failed, the reason for admins, no audio for anyone else', async () => {
  test.setTimeout(60_000);
  const part = wavPart(2, 1) as { name: string; mimeType: string; buffer: Buffer };
  const title = `Broken ${unique()}`;
  const created = (await expectJson(
    await postTrack({
      title,
      type: 'Mix',
      featured: 'false',
      coverImage: files.cover(),
      audioFile: { ...part, buffer: part.buffer.subarray(0, 20_000) },
    }),
    201,
  )) as Track;
  expect(created.audioStatus).toBe('processing');
  await expect
    .poll(
      async () =>
        ((await (await r.anon.get(`/api/tracks/${created.id}`)).json()) as Track).audioStatus,
      {
        timeout: 30_000,
      },
    )
    .toBe('failed');
  // The API says why there is nothing to play, and gives no URL (the upload answers 404).
  const one = (await (await r.anon.get(`/api/tracks/${created.id}`)).json()) as PublicTrack;
  expect(one).toMatchObject({ audioStatus: 'failed', audioFile: null, locked: false });
  const listed = ((await (await r.anon.get('/api/tracks')).json()) as PublicTrack[]).find(
    (t) => t.id === created.id,
  );
  expect(listed).toMatchObject({ audioStatus: 'failed', audioFile: null });
  // Nor do the embed, the podcast feed or the track page's data and JSON-LD name the upload.
  const embed = await r.anon.get(`/embed/tracks/${created.id}`);
  expect(embed.status()).toBe(200);
  expect(await embed.text()).not.toContain(created.audioFile);
  expect(await (await r.anon.get('/podcast.xml')).text()).not.toContain(title);
  // Visitors: a note, no player, no file.
  for (const page of [`/music/${created.id}`, `/music?q=${encodeURIComponent(title)}`]) {
    const html = await (await r.anon.get(page)).text();
    expect(html, page).toContain('Not available');
    // No player, no link to the upload, not even its URL in the page's data or JSON-LD.
    expect(html, page).not.toContain(created.audioFile);
  }
  expect((await r.anon.get(created.audioFile)).status()).toBe(404);
  expect((await r.anon.get(`/api/tracks/${created.id}/peaks`)).status()).toBe(404);
  // Admins: why, and the upload kept.
  const list = await (await r.admin.get(`/admin/tracks`)).text();
  expect(list).toMatch(/Processing failed<\/span>: The WAV file is truncated/);
  const edit = await (await r.admin.get(`/admin/tracks/${created.id}/edit`)).text();
  expect(edit).toContain('Processing failed');
  expect(edit).toContain('The WAV file is truncated');
  expect((await r.admin.get(created.audioFile)).status()).toBe(200);
  expect(
    (await r.admin.delete(`/api/admin/tracks/${created.id}`, { headers: SAME_ORIGIN })).status(),
  ).toBe(204);
});
