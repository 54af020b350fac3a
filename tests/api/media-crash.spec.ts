import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import { writeWav } from '../helpers/wav';
import { apiLogin, runScriptFor, startServer, type TestServer } from '../security/server';

/**
 * A crash in the middle of a transcoding job (decision 035): a 4-minute stereo WAV (42 MB)
 * goes up through the admin API; the server is SIGKILLed once its media job has started and
 * before it is done, then started again on the same data. After the restart the job is claimed
 * again (its lease, MEDIA_LEASE_SECONDS, ran out) and completes once: the track is ready with
 * one MP3 stream, the WAV kept as its original, no temporary file left, and one waveform.
 *
 * Runs its own server on a temporary DATA_DIR/UPLOADS_DIR, on the build.
 */
const ADMIN = { username: 'media-crash-admin', password: 'media-crash-password' };
const ENV = { LOG_LEVEL: 'info', MEDIA_LEASE_SECONDS: '2' };

test('SIGKILL during a transcoding job: after restart the job completes once', async () => {
  test.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-media-crash-'));
  runScriptFor(dir, 'scripts/create-admin.ts', {
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  const wav = path.join(dir, 'set.wav');
  writeWav(wav, { seconds: 240, sampleRate: 44100, channels: 2, toneHz: 110, bursts: [120] });
  let server: TestServer | null = await startServer(dir, ENV);
  try {
    const cookie = await apiLogin(server.url, ADMIN.username, ADMIN.password);
    const form = new FormData();
    form.set('title', 'Crash set');
    form.set('featured', 'false');
    form.set(
      'coverImage',
      new Blob([new Uint8Array(fs.readFileSync('tests/fixtures/cover.jpg'))], {
        type: 'image/jpeg',
      }),
      'cover.jpg',
    );
    form.set(
      'audioFile',
      new Blob([new Uint8Array(fs.readFileSync(wav))], { type: 'audio/wav' }),
      'set.wav',
    );
    const response = await fetch(`${server.url}/api/admin/tracks`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: server.url },
      body: form,
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as {
      id: number;
      audioFile: string;
      audioStatus: string;
    };
    expect(created.audioStatus).toBe('processing');

    const running = server;
    await expect
      .poll(() => running.stdout().includes('media job started'), {
        timeout: 60_000,
        intervals: [20],
      })
      .toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.proc.kill('SIGKILL');
    await server.exited;
    expect(server.stdout(), 'the kill came before the job was done').not.toContain(
      'media job done',
    );
    server = null;

    server = await startServer(dir, ENV);
    const restarted = server;
    let track: { audioFile: string; audioStatus: string } = created;
    await expect
      .poll(
        async () => {
          track = (await (
            await fetch(`${restarted.url}/api/tracks/${created.id}`)
          ).json()) as typeof track;
          return track.audioStatus;
        },
        { timeout: 120_000, intervals: [250] },
      )
      .toBe('ready');
    expect(track.audioFile).toMatch(/^\/uploads\/audio\/[0-9a-f]{32}\.mp3$/);
    expect(restarted.stdout().match(/media job done/g)).toHaveLength(1);

    // One stream, the original kept, nothing half-written.
    const audio = fs.readdirSync(path.join(dir, 'uploads', 'audio'));
    expect(audio.filter((f) => f.endsWith('.mp3') && f !== 'fallback.mp3')).toEqual([
      path.basename(track.audioFile),
    ]);
    expect(audio.filter((f) => f.endsWith('.wav'))).toEqual([path.basename(created.audioFile)]);
    expect(audio.filter((f) => f.endsWith('.part'))).toEqual([]);
    const stream = await fetch(`${restarted.url}${track.audioFile}`);
    expect(stream.status).toBe(200);
    expect((await stream.arrayBuffer()).byteLength).toBeGreaterThan(5_000_000); // 4 min at 192 kbps

    // One waveform, for the stream: the one-off script finds nothing to do.
    const peaks = await fetch(`${restarted.url}/api/tracks/${created.id}/peaks`);
    expect(peaks.status).toBe(200);
    const report = runScriptFor(dir, 'scripts/media-peaks.ts');
    expect(report).toContain('1 track(s): 0 computed, 1 already had peaks');
  } finally {
    if (server) {
      server.proc.kill('SIGTERM');
      await server.exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
