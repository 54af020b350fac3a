import fs from 'node:fs/promises';

/**
 * A streaming WAV (RIFF/WAVE) reader: bytes go in as they are read from the file, PCM comes out
 * as one Float32Array per channel (samples in -1…1), so a 900 MB file never sits in memory.
 *
 * Formats: integer PCM of 8 (unsigned), 16, 24 and 32 bits, IEEE float of 32 and 64 bits, plain
 * (`fmt ` tag 1 or 3) or WAVE_FORMAT_EXTENSIBLE (tag 0xFFFE, sub-format PCM or float), any
 * channel count, at 8 to 192 kHz. Chunks before and after `data` (LIST, fact, bext, JUNK, …) are
 * skipped by counting their bytes, with their pad byte when their size is odd; a `fmt ` chunk
 * over 64 KiB is refused (decision 046). Anything else fails with a message that says what is
 * wrong: not a WAV, no `fmt ` before `data`, an unsupported encoding or sample rate, an
 * inconsistent header, or a file cut short. A WavError is the file's fault: the media job
 * fails at once, without retries.
 */
export type WavFormat = {
  encoding: 'int' | 'float';
  bitsPerSample: number;
  channels: number;
  sampleRate: number;
  /** Bytes per frame (one sample of every channel). */
  blockAlign: number;
  /** Frames in the data chunk, as its header declares them. */
  frames: number;
};

export class WavError extends Error {
  override name = 'WavError';
}

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_IEEE_FLOAT = 3;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/** The largest chunk the reader holds in memory (its `fmt `): real ones are 16 to 40 bytes. */
export const MAX_HELD_CHUNK = 64 * 1024;
/** The sample rates a track may have, in Hz (below, LAME cannot encode; above, no DAW writes). */
export const MIN_SAMPLE_RATE = 8000;
export const MAX_SAMPLE_RATE = 192_000;

type State =
  | { kind: 'riff' }
  | { kind: 'chunk-header' }
  | { kind: 'fmt'; size: number }
  | { kind: 'skip'; left: number }
  | { kind: 'data'; left: number }
  | { kind: 'done' };

/**
 * Bytes are consumed where they arrive: the reader keeps only `held`, the start of a header or
 * chunk it must see whole (12 bytes of RIFF header, 8 of chunk header, a `fmt ` chunk of at
 * most MAX_HELD_CHUNK) or a frame cut in two by a read (less than one block), so what it holds
 * never grows with the file, whatever a chunk's header declares. Chunks it does not need are
 * skipped by counting.
 */
export class WavReader {
  /** Known once the `fmt ` chunk and the `data` chunk's header have been read. */
  format: WavFormat | null = null;
  private state: State = { kind: 'riff' };
  /** Bytes of an unfinished header, `fmt ` chunk or frame: at most MAX_HELD_CHUNK. */
  private held: Buffer = Buffer.alloc(0);
  private seen = 0;
  private framesRead = 0;
  private declaredData = -1;

  /** Bytes held between two reads (at most MAX_HELD_CHUNK, whatever the file). */
  get heldBytes(): number {
    return this.held.length;
  }

  /** Feed the next bytes of the file; answers the PCM they complete (null for none). */
  push(chunk: Uint8Array): Float32Array[] | null {
    this.seen += chunk.byteLength;
    let bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let out: Float32Array[] | null = null;
    for (;;) {
      const s = this.state;
      if (s.kind === 'data') {
        const { pcm, rest } = this.data(s, bytes);
        if (pcm) out = out ? concatChannels(out, pcm) : pcm;
        bytes = rest;
        if (this.state.kind === 'data') return out;
        continue;
      }
      if (s.kind === 'done') return out;
      if (s.kind === 'skip') {
        const n = Math.min(s.left, bytes.length);
        s.left -= n;
        bytes = bytes.subarray(n);
        if (s.left > 0) return out;
        this.state = { kind: 'chunk-header' };
        continue;
      }
      const need = s.kind === 'riff' ? 12 : s.kind === 'chunk-header' ? 8 : s.size + (s.size % 2);
      const whole = this.take(need, bytes);
      if (!whole) return out;
      bytes = bytes.subarray(whole.used);
      this.header(s, whole.bytes);
    }
  }

  /**
   * `need` bytes from what is held and `bytes`, or null (the rest is held: fewer than `need`).
   * Only a header or a `fmt ` chunk is taken this way, so `need` is at most MAX_HELD_CHUNK + 1.
   */
  private take(need: number, bytes: Buffer): { bytes: Buffer; used: number } | null {
    if (!this.held.length && bytes.length >= need)
      return { bytes: bytes.subarray(0, need), used: need };
    const used = Math.min(need - this.held.length, bytes.length);
    // A copy: `bytes` may be a view of the caller's buffer, which it is free to reuse.
    this.held = Buffer.concat([this.held, bytes.subarray(0, used)]);
    if (this.held.length < need) return null;
    const whole = this.held;
    this.held = Buffer.alloc(0);
    return { bytes: whole, used };
  }

  /** A whole RIFF header, chunk header or `fmt ` chunk. */
  private header(s: State, b: Buffer): void {
    if (s.kind === 'riff') {
      if (b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE')
        throw new WavError('Not a WAV file (no RIFF/WAVE header)');
      this.state = { kind: 'chunk-header' };
    } else if (s.kind === 'chunk-header') {
      const id = b.toString('latin1', 0, 4);
      const size = b.readUInt32LE(4);
      if (id === 'fmt ') {
        if (this.format) throw new WavError('The WAV file has two fmt chunks');
        if (size > MAX_HELD_CHUNK)
          throw new WavError(
            `The WAV fmt chunk declares ${size} bytes: at most ${MAX_HELD_CHUNK} are allowed`,
          );
        this.state = { kind: 'fmt', size };
      } else if (id === 'data') {
        if (!this.format) throw new WavError('The WAV data chunk comes before its fmt chunk');
        this.declaredData = size;
        this.format.frames = Math.floor(size / this.format.blockAlign);
        this.state = { kind: 'data', left: size };
      } else this.state = { kind: 'skip', left: size + (size % 2) };
    } else if (s.kind === 'fmt') {
      this.format = parseFmt(b.subarray(0, s.size));
      this.state = { kind: 'chunk-header' };
    }
  }

  /** Decode the whole frames of `bytes` (after a frame held from the last read). */
  private data(s: { left: number }, bytes: Buffer): { pcm: Float32Array[] | null; rest: Buffer } {
    const format = this.format!;
    const { blockAlign } = format;
    let pcm: Float32Array[] | null = null;
    let rest = bytes;
    if (this.held.length) {
      // The rest of a frame cut by the last read (less than one block).
      const whole = this.take(blockAlign, rest);
      if (!whole) return { pcm, rest: Buffer.alloc(0) };
      rest = rest.subarray(whole.used);
      pcm = decodeFrames(whole.bytes, format);
      this.framesRead += 1;
      s.left -= blockAlign;
    }
    const available = Math.min(s.left, rest.length);
    const usable = available - (available % blockAlign);
    if (usable > 0) {
      const more = decodeFrames(rest.subarray(0, usable), format);
      pcm = pcm ? concatChannels(pcm, more) : more;
      this.framesRead += usable / blockAlign;
      rest = rest.subarray(usable);
      s.left -= usable;
    }
    if (s.left < blockAlign) {
      // The audio is complete (a partial last frame is dropped); later chunks (LIST, id3…)
      // carry nothing the stream or the waveform need.
      this.state = { kind: 'done' };
      return { pcm, rest: Buffer.alloc(0) };
    }
    // A frame cut by the end of this read: held until the next.
    if (rest.length) this.take(blockAlign, rest);
    return { pcm, rest: Buffer.alloc(0) };
  }

  /** The file has ended: the frames read, or a WavError when it was cut short or empty. */
  end(): { frames: number } {
    const s = this.state;
    if (s.kind === 'done') return { frames: this.framesRead };
    if (s.kind === 'data') {
      throw new WavError(
        `The WAV file is truncated: its data chunk declares ${this.declaredData} bytes, ` +
          `the file holds ${this.declaredData - s.left + this.held.length}`,
      );
    }
    if (s.kind === 'riff') {
      throw new WavError(this.seen ? 'Not a WAV file (too short)' : 'The file is empty');
    }
    if (!this.format) throw new WavError('The WAV file is truncated before its fmt chunk');
    throw new WavError('The WAV file has no data chunk');
  }
}

function parseFmt(b: Buffer): WavFormat {
  if (b.length < 16) throw new WavError('The WAV fmt chunk is too short');
  let tag = b.readUInt16LE(0);
  const channels = b.readUInt16LE(2);
  const sampleRate = b.readUInt32LE(4);
  const blockAlign = b.readUInt16LE(12);
  const bitsPerSample = b.readUInt16LE(14);
  if (tag === WAVE_FORMAT_EXTENSIBLE) {
    if (b.length < 40) throw new WavError('The WAV extensible fmt chunk is too short');
    tag = b.readUInt16LE(24); // the first two bytes of the sub-format GUID
  }
  if (channels < 1) throw new WavError('The WAV file declares no channels');
  if (sampleRate < MIN_SAMPLE_RATE || sampleRate > MAX_SAMPLE_RATE)
    throw new WavError(
      `The WAV file's sample rate is ${sampleRate} Hz: ` +
        `${MIN_SAMPLE_RATE / 1000} to ${MAX_SAMPLE_RATE / 1000} kHz only`,
    );
  let encoding: WavFormat['encoding'];
  if (tag === WAVE_FORMAT_PCM && [8, 16, 24, 32].includes(bitsPerSample)) encoding = 'int';
  else if (tag === WAVE_FORMAT_IEEE_FLOAT && (bitsPerSample === 32 || bitsPerSample === 64))
    encoding = 'float';
  else
    throw new WavError(
      `Unsupported WAV encoding (format ${tag}, ${bitsPerSample} bits): ` +
        'integer PCM of 8 to 32 bits or 32/64-bit float only',
    );
  if (blockAlign !== channels * (bitsPerSample / 8))
    throw new WavError(`The WAV fmt chunk is inconsistent (block align ${blockAlign})`);
  return { encoding, bitsPerSample, channels, sampleRate, blockAlign, frames: 0 };
}

function decodeFrames(b: Buffer, f: WavFormat): Float32Array[] {
  const frames = b.length / f.blockAlign;
  const out = Array.from({ length: f.channels }, () => new Float32Array(frames));
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const size = f.bitsPerSample / 8;
  const { channels } = f;
  for (let c = 0; c < channels; c++) {
    const dest = out[c]!;
    let offset = c * size;
    const step = f.blockAlign;
    if (f.encoding === 'float') {
      for (let i = 0; i < frames; i++, offset += step)
        dest[i] = size === 4 ? view.getFloat32(offset, true) : view.getFloat64(offset, true);
    } else if (size === 2) {
      for (let i = 0; i < frames; i++, offset += step)
        dest[i] = view.getInt16(offset, true) / 32768;
    } else if (size === 3) {
      for (let i = 0; i < frames; i++, offset += step) {
        const v =
          view.getUint8(offset) |
          (view.getUint8(offset + 1) << 8) |
          (view.getInt8(offset + 2) << 16);
        dest[i] = v / 8388608;
      }
    } else if (size === 4) {
      for (let i = 0; i < frames; i++, offset += step)
        dest[i] = view.getInt32(offset, true) / 2147483648;
    } else {
      for (let i = 0; i < frames; i++, offset += step)
        dest[i] = (view.getUint8(offset) - 128) / 128;
    }
  }
  return out;
}

function concatChannels(a: Float32Array[], b: Float32Array[]): Float32Array[] {
  return a.map((ch, i) => {
    const joined = new Float32Array(ch.length + b[i]!.length);
    joined.set(ch);
    joined.set(b[i]!, ch.length);
    return joined;
  });
}

/** Chunks an upload's header check walks before it gives up looking for `fmt ` (and passes). */
const MAX_HEADER_CHUNKS = 64;

/**
 * What is wrong with the header of the WAV `file`, or null when its `fmt ` chunk is one the
 * reader accepts (or when the file is not a WAV: that is the sniffer's to say). It reads
 * chunk headers and the `fmt ` chunk only, seeking over the rest, so it costs a few small
 * reads whatever the file's size: an upload is refused at once (decision 046) rather than
 * failing in its media job, which still checks everything as it reads.
 */
export async function checkWavHeader(file: string): Promise<string | null> {
  const handle = await fs.open(file, 'r');
  try {
    const read = async (position: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return buffer.subarray(0, bytesRead);
    };
    const riff = await read(0, 12);
    if (riff.length < 12 || riff.toString('latin1', 0, 4) !== 'RIFF') return null;
    if (riff.toString('latin1', 8, 12) !== 'WAVE') return null;
    let offset = 12;
    for (let i = 0; i < MAX_HEADER_CHUNKS; i++) {
      const header = await read(offset, 8);
      if (header.length < 8) return null; // cut short: the job says how
      const id = header.toString('latin1', 0, 4);
      const size = header.readUInt32LE(4);
      if (id === 'data') return 'The WAV data chunk comes before its fmt chunk';
      if (id === 'fmt ') {
        if (size > MAX_HELD_CHUNK)
          return `The WAV fmt chunk declares ${size} bytes: at most ${MAX_HELD_CHUNK} are allowed`;
        parseFmt(await read(offset + 8, size));
        return null;
      }
      offset += 8 + size + (size % 2);
    }
    return null;
  } catch (error) {
    if (error instanceof WavError) return error.message;
    throw error;
  } finally {
    await handle.close();
  }
}
