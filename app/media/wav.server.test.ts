import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import {
  type WavSpec,
  wavWithHeader,
  writeDeclaredChunkWav,
  writeWav,
} from '../../tests/helpers/wav';
import { checkWavHeader, MAX_HELD_CHUNK, WavError, WavReader } from './wav.server';

/** The streaming WAV reader: every encoding it claims, odd chunk layouts, and broken files. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-wav-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let n = 0;
function wavBytes(spec: WavSpec): Buffer {
  const file = path.join(dir, `${++n}.wav`);
  writeWav(file, spec);
  return fs.readFileSync(file);
}

/** Feed `bytes` in slices of `step` (odd sizes split headers and frames) and collect the PCM. */
function read(bytes: Uint8Array, step = 997) {
  const reader = new WavReader();
  const channels: number[][] = [];
  for (let i = 0; i < bytes.length; i += step) {
    const pcm = reader.push(bytes.subarray(i, i + step));
    pcm?.forEach((ch, c) => (channels[c] ??= []).push(...ch));
  }
  const { frames } = reader.end();
  return { reader, channels, frames };
}

describe('WavReader', () => {
  const formats: [string, Partial<WavSpec>, number][] = [
    ['16-bit PCM', { encoding: 'int', bits: 16 }, 1 / 32767],
    ['24-bit PCM', { encoding: 'int', bits: 24 }, 1e-6],
    ['32-bit PCM', { encoding: 'int', bits: 32 }, 1e-6],
    ['8-bit PCM', { encoding: 'int', bits: 8 }, 1 / 100],
    ['32-bit float', { encoding: 'float', bits: 32 }, 1e-6],
    ['64-bit float', { encoding: 'float', bits: 64 }, 1e-6],
  ];
  for (const [name, spec, tolerance] of formats) {
    for (const channels of [1, 2]) {
      it(`reads ${name}, ${channels === 1 ? 'mono' : 'stereo'}`, () => {
        const sampleRate = 8000;
        const {
          reader,
          channels: pcm,
          frames,
        } = read(wavBytes({ seconds: 0.25, sampleRate, channels, toneHz: 440, ...spec }));
        expect(reader.format).toMatchObject({ channels, sampleRate, frames: 2000 });
        expect(frames).toBe(2000);
        expect(pcm).toHaveLength(channels);
        for (const ch of pcm) {
          expect(ch).toHaveLength(2000);
          // The tone at -6 dB: sample 10 of a 440 Hz sine at 8 kHz.
          expect(
            Math.abs(ch[10]! - 0.5 * Math.sin((2 * Math.PI * 440 * 10) / sampleRate)),
          ).toBeLessThan(tolerance * 2);
        }
      });
    }
  }

  it('reads WAVE_FORMAT_EXTENSIBLE (24-bit PCM and 32-bit float)', () => {
    for (const spec of [
      { encoding: 'int', bits: 24 },
      { encoding: 'float', bits: 32 },
    ] as const) {
      const { frames, reader } = read(
        wavBytes({ seconds: 0.1, sampleRate: 8000, toneHz: 220, extensible: true, ...spec }),
      );
      expect(frames).toBe(800);
      expect(reader.format?.encoding).toBe(spec.encoding);
    }
  });

  it('skips chunks before fmt, between fmt and data (odd sizes with their pad byte) and after data', () => {
    const bytes = wavBytes({
      seconds: 0.1,
      sampleRate: 8000,
      channels: 1,
      toneHz: 440,
      extraChunks: [
        { id: 'JUNK', size: 27, where: 'before-fmt' },
        { id: 'LIST', size: 13, where: 'before-data' },
        { id: 'fact', size: 4, where: 'before-data' },
        { id: 'id3 ', size: 101, where: 'after-data' },
      ],
    });
    for (const step of [1, 7, 4096, bytes.length]) {
      const { frames, channels } = read(bytes, step);
      expect(frames).toBe(800);
      expect(channels[0]).toHaveLength(800);
    }
  });

  it('handles an odd-sized data chunk (8-bit mono, odd frame count)', () => {
    const { frames } = read(
      wavBytes({ seconds: 801 / 8000, sampleRate: 8000, channels: 1, bits: 8 }),
    );
    expect(frames).toBe(801);
  });

  it('fails clearly on a truncated file', () => {
    const bytes = wavBytes({ seconds: 0.5, sampleRate: 8000 });
    expect(() => read(bytes.subarray(0, bytes.length - 1000))).toThrowError(
      /truncated: its data chunk declares 16000 bytes, the file holds 15000/,
    );
    expect(() => read(bytes.subarray(0, 30))).toThrowError(/truncated before its fmt chunk/);
    expect(() => read(bytes.subarray(0, 0))).toThrowError(/empty/);
  });

  it('fails clearly on what is not a WAV it can read', () => {
    expect(() => read(Buffer.from('ID3\u0004\u0000 not a wave at all'))).toThrowError(WavError);
    expect(() => read(Buffer.from('ID3\u0004\u0000 not a wave at all'))).toThrowError(/Not a WAV/);
    const adpcm = wavBytes({ seconds: 0.1, sampleRate: 8000 });
    adpcm.writeUInt16LE(2, 20); // MS ADPCM
    expect(() => read(adpcm)).toThrowError(/Unsupported WAV encoding \(format 2, 16 bits\)/);
    // data before fmt
    const swapped = Buffer.concat([
      Buffer.from(
        'RIFF\u0000\u0000\u0000\u0000WAVEdata\u0004\u0000\u0000\u0000\u0000\u0000\u0000\u0000',
        'latin1',
      ),
    ]);
    expect(() => read(swapped)).toThrowError(/data chunk comes before its fmt chunk/);
    // no data chunk
    const headerOnly = wavBytes({ seconds: 0, sampleRate: 8000 }).subarray(0, 36);
    expect(() => read(headerOnly)).toThrowError(/no data chunk/);
  });

  it('refuses a fmt chunk over 64 KiB from its header, before reading its body (issue 38)', () => {
    const file = path.join(dir, 'fmt-2gb.wav');
    writeDeclaredChunkWav(file, 'fmt ', 2 ** 31, 4096);
    const reader = new WavReader();
    expect(() => reader.push(fs.readFileSync(file).subarray(0, 20))).toThrowError(
      /fmt chunk declares 2147483648 bytes: at most 65536/,
    );
    // At the limit it is read (a real fmt chunk followed by padding the reader ignores).
    const fmt = wavBytes({ seconds: 0.01, sampleRate: 8000, channels: 1 });
    const padded = Buffer.concat([
      fmt.subarray(0, 16),
      Buffer.from([0, 0, 1, 0]), // fmt size: 65536
      fmt.subarray(20, 36),
      Buffer.alloc(MAX_HELD_CHUNK - 16),
      fmt.subarray(36),
    ]);
    expect(read(padded, 1000).frames).toBe(80);
  });

  it('skips a huge chunk by counting, holding nothing but a frame or a header', () => {
    const file = path.join(dir, 'junk-2gb.wav');
    writeDeclaredChunkWav(file, 'JUNK', 2 ** 31, 8 * 1024 * 1024);
    const bytes = fs.readFileSync(file);
    const reader = new WavReader();
    let most = 0;
    for (let i = 0; i < bytes.length; i += 1024 * 1024) {
      reader.push(bytes.subarray(i, i + 1024 * 1024));
      most = Math.max(most, reader.heldBytes);
    }
    expect(most).toBeLessThanOrEqual(8);
    expect(() => reader.end()).toThrowError(/truncated before its fmt chunk/);
    // Frames cut by every read are held one at a time (24-bit stereo: 6 bytes).
    const audio = wavBytes({ seconds: 0.5, sampleRate: 8000, bits: 24, toneHz: 100 });
    const split = new WavReader();
    for (let i = 0; i < audio.length; i += 1001) {
      split.push(audio.subarray(i, i + 1001));
      expect(split.heldBytes).toBeLessThan(64);
    }
    expect(split.end().frames).toBe(4000);
  });

  it('refuses sample rates outside 8–192 kHz and impossible headers, with what is wrong', () => {
    for (const rate of [4000, 7999, 192_001, 0]) {
      expect(() => read(wavWithHeader({ sampleRate: rate }))).toThrowError(
        new RegExp(`sample rate is ${rate} Hz: 8 to 192 kHz only`),
      );
    }
    for (const rate of [8000, 192_000]) {
      const bytes = wavWithHeader({ sampleRate: rate });
      expect(read(bytes).reader.format?.sampleRate).toBe(rate);
    }
    expect(() => read(wavWithHeader({ channels: 0 }))).toThrowError(/declares no channels/);
    expect(() => read(wavWithHeader({ bits: 12 }))).toThrowError(/Unsupported WAV encoding/);
    expect(() => read(wavWithHeader({ blockAlign: 3 }))).toThrowError(/inconsistent/);
    for (const bad of [{ sampleRate: 4000 }, { channels: 0 }, { bits: 12 }]) {
      expect(() => read(wavWithHeader(bad))).toThrowError(WavError);
    }
  });

  it("checks an upload's header by seeking over chunks: what the job would refuse, or null", async () => {
    const at = (name: string, bytes: Buffer) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, bytes);
      return file;
    };
    const fmt2gb = path.join(dir, 'check-fmt.wav');
    writeDeclaredChunkWav(fmt2gb, 'fmt ', 2 ** 31, 1024);
    expect(await checkWavHeader(fmt2gb)).toMatch(/fmt chunk declares 2147483648 bytes/);
    expect(await checkWavHeader(at('4k.wav', wavWithHeader({ sampleRate: 4000 })))).toMatch(
      /sample rate is 4000 Hz/,
    );
    expect(await checkWavHeader(at('0ch.wav', wavWithHeader({ channels: 0 })))).toMatch(
      /no channels/,
    );
    const junk = path.join(dir, 'check-junk.wav');
    writeDeclaredChunkWav(junk, 'JUNK', 2 ** 31, 1024); // no fmt in the file: the job says so
    expect(await checkWavHeader(junk)).toBeNull();
    const fine = wavBytes({
      seconds: 0.1,
      sampleRate: 44100,
      extraChunks: [{ id: 'LIST', size: 99, where: 'before-fmt' }],
    });
    expect(await checkWavHeader(at('fine.wav', fine))).toBeNull();
    expect(await checkWavHeader(at('mp3.mp3', Buffer.from('ID3\u0004 not a wave')))).toBeNull();
  });
});
