import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

import { parseFile } from 'music-metadata';
import { afterAll, describe, expect, it } from 'vitest';
import WaveformData from 'waveform-data';

import { writeWav } from '../../tests/helpers/wav';
import { samplesPerPixelFor } from './peaks.server';
import { processAudioInThread, threadEntry } from './run-in-thread.server';
import { needsTranscode, processAudio } from './transcode.server';

/**
 * The transcoder on generated audio: the peaks put a burst where it is, the JSON loads in
 * waveform-data, the MP3 is a 192 kbps file of the right length (read back by music-metadata),
 * MP3s at or below 320 kbps are left as they are, and the job process gives the same answer.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-transcode-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string) => path.join(dir, name);

function maxIndex(data: number[]): number {
  let best = 1;
  for (let i = 3; i < data.length; i += 2) if (data[i]! > data[best]!) best = i;
  return (best - 1) / 2;
}

describe('peaks', () => {
  it('has its maximum at the burst, about 1–2 thousand points, and loads in waveform-data', async () => {
    for (const [seconds, burst, sampleRate] of [
      [12, 7, 44100],
      [3, 1.5, 48000],
    ] as const) {
      const wav = file(`burst-${seconds}.wav`);
      writeWav(wav, { seconds, sampleRate, channels: 2, bursts: [burst] });
      const { peaks, durationSeconds } = await processAudio(wav, null);
      expect(durationSeconds).toBeCloseTo(seconds, 3);
      expect(peaks).toMatchObject({ version: 2, channels: 1, sample_rate: sampleRate, bits: 8 });
      expect(peaks.samples_per_pixel).toBe(samplesPerPixelFor(seconds * sampleRate));
      expect(peaks.length).toBeGreaterThanOrEqual(1000);
      expect(peaks.length).toBeLessThanOrEqual(2000);
      expect(peaks.data).toHaveLength(peaks.length * 2);
      expect(maxIndex(peaks.data)).toBe(
        Math.floor((burst * peaks.sample_rate) / peaks.samples_per_pixel),
      );
      expect(Math.max(...peaks.data)).toBeGreaterThan(120);
      // Silence elsewhere.
      expect(peaks.data.slice(0, 20).every((v) => v === 0)).toBe(true);

      const waveform = WaveformData.create(peaks);
      expect(waveform.length).toBe(peaks.length);
      expect(waveform.channels).toBe(1);
      expect(waveform.duration).toBeCloseTo(seconds, 1);
      const channel = waveform.channel(0);
      expect(channel.max_sample(maxIndex(peaks.data))).toBe(Math.max(...peaks.data));
    }
  });

  it('keeps about 1–2 thousand points whatever the duration', () => {
    for (const seconds of [1, 60, 3600, 5 * 3600]) {
      const frames = seconds * 44100;
      const points = Math.ceil(frames / samplesPerPixelFor(frames));
      expect(points).toBeGreaterThanOrEqual(1000);
      expect(points).toBeLessThanOrEqual(2000);
    }
  });
});

describe('the 192 kbps stream', () => {
  it('encodes a WAV (stereo 16-bit, mono 24-bit, stereo float) to a 192 kbps MP3 of the same length', async () => {
    for (const [name, spec] of [
      ['stereo16', { channels: 2, bits: 16, encoding: 'int' }],
      ['mono24', { channels: 1, bits: 24, encoding: 'int' }],
      ['float32', { channels: 2, bits: 32, encoding: 'float' }],
    ] as const) {
      const wav = file(`${name}.wav`);
      const mp3 = file(`${name}.mp3`);
      writeWav(wav, { seconds: 4, sampleRate: 44100, toneHz: 440, ...spec });
      expect(await needsTranscode(wav)).toBe(true);
      const result = await processAudio(wav, mp3);
      expect(result.transcoded).toBe(true);
      const { format } = await parseFile(mp3, { duration: true });
      expect(format.codec).toMatch(/MPEG 1 Layer 3/);
      expect(format.bitrate).toBe(192_000);
      expect(format.numberOfChannels).toBe(spec.channels);
      expect(Math.abs((format.duration ?? 0) - 4)).toBeLessThan(0.1);
    }
  });

  it('leaves MP3s at or below 320 kbps as they are, computing their peaks from the decoded MP3', async () => {
    const wav = file('source.wav');
    const mp3 = file('source.mp3');
    writeWav(wav, { seconds: 5, sampleRate: 44100, bursts: [2] });
    await processAudio(wav, mp3);
    expect(await needsTranscode(mp3)).toBe(false);
    const { peaks, durationSeconds, kind } = await processAudio(mp3, null);
    expect(kind).toBe('mp3');
    expect(Math.abs(durationSeconds - 5)).toBeLessThan(0.1);
    // LAME's encoder delay (about 1,100 samples, no gapless header in a CBR stream) shifts the
    // burst by some 25 ms: within 30 ms of where it was.
    const expected = Math.floor((2 * peaks.sample_rate) / peaks.samples_per_pixel);
    const slack = Math.ceil((0.03 * peaks.sample_rate) / peaks.samples_per_pixel);
    expect(Math.abs(maxIndex(peaks.data) - expected)).toBeLessThanOrEqual(slack);
  });

  it('fails with a clear message, leaving no output, for a file it cannot decode', async () => {
    const wav = file('cut.wav');
    writeWav(wav, { seconds: 2, sampleRate: 8000 });
    fs.truncateSync(wav, 5000);
    const out = file('cut.mp3');
    await expect(processAudio(wav, out)).rejects.toThrowError(/truncated/);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('runs in a job process of its own with the same result, and reports a bad file as permanent', async () => {
    const wav = file('thread.wav');
    writeWav(wav, { seconds: 2, sampleRate: 22050, channels: 1, bursts: [1] });
    const run = processAudioInThread(wav, file('thread.mp3'));
    const result = await run.result;
    expect(result.transcoded).toBe(true);
    expect(result.peaks).toEqual((await processAudio(wav, null)).peaks);
    fs.writeFileSync(file('bad.wav'), 'RIFF\u0000\u0000\u0000\u0000WAVEjunk');
    await expect(processAudioInThread(file('bad.wav'), null).result).rejects.toMatchObject({
      permanent: true,
      message: expect.stringMatching(/no data chunk|truncated/),
    });
  });

  it("finds the thread's entry from its own module, wherever the process was started", async () => {
    const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
    const boot = path.join(root, 'app', 'media', 'transcode-thread-boot.mjs');
    // Under tsx (here) the module is app/media/…: the boot file, which registers tsx.
    expect(threadEntry()).toBe(boot);
    expect(() => threadEntry(path.join(os.tmpdir(), 'x.js'))).toThrowError(/not above/);
    // In a build (build/index.js) the compiled thread beside it, when there is one.
    const built = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-build-'));
    try {
      fs.writeFileSync(path.join(built, 'media-thread.js'), '');
      expect(threadEntry(pathToFileURL(path.join(built, 'index.js')).href)).toBe(
        path.join(built, 'media-thread.js'),
      );
    } finally {
      fs.rmSync(built, { recursive: true, force: true });
    }

    // A process started from another folder (`cd /tmp && node …`) runs a job in its process.
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-cwd-'));
    const wav = file('elsewhere.wav');
    writeWav(wav, { seconds: 1, sampleRate: 8000, channels: 1 });
    const module = pathToFileURL(path.join(root, 'app', 'media', 'run-in-thread.server.ts')).href;
    const script = `const { processAudioInThread } = await import(${JSON.stringify(module)});
const r = await processAudioInThread(${JSON.stringify(wav)}, ${JSON.stringify(file('elsewhere.mp3'))}).result;
process.stdout.write(JSON.stringify({ transcoded: r.transcoded, seconds: r.durationSeconds }));`;
    fs.writeFileSync(path.join(elsewhere, 'run.mjs'), script);
    const tsx = pathToFileURL(path.join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', tsx, path.join(elsewhere, 'run.mjs')],
        { cwd: elsewhere, timeout: 25_000 },
      );
      expect(JSON.parse(stdout)).toEqual({ transcoded: true, seconds: 1 });
      expect(fs.statSync(file('elsewhere.mp3')).size).toBeGreaterThan(1000);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
