import fs from 'node:fs';

import { MPEGDecoder } from 'mpg123-decoder';
import { parseFile } from 'music-metadata';
import { createMp3Encoder } from 'wasm-media-encoders';

import type { PeaksJSON } from '~/types/peaks';

import { PeaksBuilder, samplesPerPixelFor } from './peaks.server';
import { WavReader } from './wav.server';

/**
 * One pass over an uploaded audio file (decision 035): decode it (WAV with our streaming
 * reader, MP3 with mpg123-decoder, both chunk by chunk from the file), compute its peaks from
 * the PCM, and, when asked, encode the same PCM to a 192 kbps MP3 with LAME
 * (wasm-media-encoders). Memory stays bounded by the read size, whatever the file's length.
 *
 * It runs in a media job's own process (./transcode-thread.ts, started by
 * ./run-in-thread.server.ts), never on the request path. Each read is awaited, so between two
 * reads that process answers its parent (a disconnect ends it) and reports its memory.
 */

export const STREAM_BITRATE = 192;
/** MP3s above this bitrate (bits/s) get a stream of their own; the rest are streamed as they are. */
export const MAX_STREAM_BITRATE = 320_000;
const READ_SIZE = 1024 * 1024;

export type AudioKind = 'wav' | 'mp3';

export type ProcessResult = {
  kind: AudioKind;
  /** True when `output` now holds the 192 kbps MP3. */
  transcoded: boolean;
  durationSeconds: number;
  peaks: PeaksJSON;
};

export class MediaError extends Error {
  override name = 'MediaError';
}

/** What the file is, by its first bytes. */
export function sniffAudio(file: string): AudioKind {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(12);
    const n = fs.readSync(fd, head, 0, 12, 0);
    if (
      n >= 12 &&
      head.toString('latin1', 0, 4) === 'RIFF' &&
      head.toString('latin1', 8, 12) === 'WAVE'
    )
      return 'wav';
    if (n >= 3 && head.toString('latin1', 0, 3) === 'ID3') return 'mp3';
    if (n >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0) return 'mp3';
    throw new MediaError('The audio file is neither a WAV nor an MP3');
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether this file needs a stream of its own: every WAV, and MP3s above 320 kbps. */
export async function needsTranscode(file: string): Promise<boolean> {
  try {
    if (sniffAudio(file) === 'wav') return true;
    const { format } = await parseFile(file, { duration: false, skipCovers: true });
    return (format.bitrate ?? 0) > MAX_STREAM_BITRATE;
  } catch {
    // Unreadable headers: the job decodes it and says what is wrong (the track stays unplayable).
    return true;
  }
}

/** Frames (samples per channel) an MP3 holds, from its headers: to size the peaks. */
async function mp3Frames(file: string): Promise<number> {
  const { format } = await parseFile(file, { duration: true, skipCovers: true });
  if (format.numberOfSamples) return format.numberOfSamples;
  return Math.round((format.duration ?? 0) * (format.sampleRate ?? 44100));
}

/** LAME's rates; anything else is resampled by LAME to the nearest it has. */
const LAME_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];

type Encoder = Awaited<ReturnType<typeof createMp3Encoder>>;

class Mp3Writer {
  private constructor(
    private readonly encoder: Encoder,
    private readonly fd: number,
    private readonly channels: number,
  ) {}

  static async open(output: string, sampleRate: number, channels: number): Promise<Mp3Writer> {
    if (channels > 2)
      throw new MediaError(`The audio has ${channels} channels: mono or stereo only`);
    const encoder = await createMp3Encoder();
    encoder.configure({
      sampleRate,
      channels: channels as 1 | 2,
      bitrate: STREAM_BITRATE,
      ...(LAME_RATES.includes(sampleRate)
        ? {}
        : { outputSampleRate: sampleRate > 48000 ? 48000 : 44100 }),
    });
    return new Mp3Writer(encoder, fs.openSync(output, 'w'), channels);
  }

  write(pcm: Float32Array[]): void {
    // LAME wants samples in -1…1; a float WAV may go past that.
    for (const ch of pcm)
      for (let i = 0; i < ch.length; i++) ch[i] = Math.max(-1, Math.min(1, ch[i]!));
    const bytes = this.encoder.encode(pcm.slice(0, this.channels));
    if (bytes.length) fs.writeSync(this.fd, bytes);
  }

  finish(): void {
    try {
      const bytes = this.encoder.finalize();
      if (bytes.length) fs.writeSync(this.fd, bytes);
      fs.fsyncSync(this.fd);
    } finally {
      fs.closeSync(this.fd);
    }
  }

  abort(): void {
    fs.closeSync(this.fd);
  }
}

/** `file` in chunks of READ_SIZE, each a view of one reused buffer (valid until the next). */
async function* chunksOf(file: string): AsyncGenerator<Uint8Array> {
  const handle = await fs.promises.open(file, 'r');
  const buffer = Buffer.alloc(READ_SIZE);
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, READ_SIZE, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** What a job learns on the way: the audio's length, once its headers are read (decision 046). */
export type ProcessHooks = { onDuration?: (seconds: number) => void };

/**
 * Decode `input`, compute its peaks and, with `output`, write the 192 kbps MP3 there. Throws a
 * WavError or MediaError (clear messages) for a file that cannot be decoded.
 */
export async function processAudio(
  input: string,
  output: string | null,
  hooks: ProcessHooks = {},
): Promise<ProcessResult> {
  const kind = sniffAudio(input);
  let writer: Mp3Writer | null = null;
  let peaks: PeaksBuilder | null = null;
  let frames = 0;
  let sampleRate = 0;
  /** The first PCM: now the rate, the channels and the length are known. */
  const start = async (rate: number, channels: number, expectedFrames: number) => {
    sampleRate = rate;
    hooks.onDuration?.(expectedFrames / rate);
    peaks = new PeaksBuilder(rate, samplesPerPixelFor(expectedFrames));
    if (output) writer = await Mp3Writer.open(output, rate, channels);
    return peaks;
  };
  const take = (builder: PeaksBuilder, pcm: Float32Array[]) => {
    frames += pcm[0]?.length ?? 0;
    builder.add(pcm);
    writer?.write(pcm);
  };
  try {
    if (kind === 'wav') {
      const reader = new WavReader();
      // A data chunk may declare more than the file holds: its length is the file's at most.
      const fileFrames = (f: { blockAlign: number; frames: number }) =>
        Math.min(f.frames, Math.floor(fs.statSync(input).size / f.blockAlign));
      for await (const chunk of chunksOf(input)) {
        const pcm = reader.push(chunk);
        if (!pcm) continue;
        const format = reader.format!;
        take(peaks ?? (await start(format.sampleRate, format.channels, fileFrames(format))), pcm);
      }
      reader.end();
    } else {
      const decoder = new MPEGDecoder();
      await decoder.ready;
      try {
        const expected = await mp3Frames(input);
        for await (const chunk of chunksOf(input)) {
          const { channelData, samplesDecoded, sampleRate: rate } = decoder.decode(chunk);
          if (samplesDecoded === 0) continue;
          const pcm = channelData.map((ch) => ch.subarray(0, samplesDecoded));
          take(peaks ?? (await start(rate, pcm.length, expected)), pcm);
        }
      } finally {
        decoder.free();
      }
    }
    if (!peaks) throw new MediaError(`The ${kind.toUpperCase()} file holds no audio`);
    (writer as Mp3Writer | null)?.finish();
  } catch (error) {
    (writer as Mp3Writer | null)?.abort();
    if (output) fs.rmSync(output, { force: true });
    throw error;
  }
  return {
    kind,
    transcoded: Boolean(output),
    durationSeconds: sampleRate ? frames / sampleRate : 0,
    peaks: (peaks as PeaksBuilder).result(),
  };
}
