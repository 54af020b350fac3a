/**
 * A streaming WAV (RIFF/WAVE) reader: bytes go in as they are read from the file, PCM comes out
 * as one Float32Array per channel (samples in -1…1), so a 900 MB file never sits in memory.
 *
 * Formats: integer PCM of 8 (unsigned), 16, 24 and 32 bits, IEEE float of 32 and 64 bits, plain
 * (`fmt ` tag 1 or 3) or WAVE_FORMAT_EXTENSIBLE (tag 0xFFFE, sub-format PCM or float), any
 * channel count. Chunks before and after `data` (LIST, fact, bext, JUNK, …) are skipped, with
 * their pad byte when their size is odd. Anything else fails with a message that says what is
 * wrong: not a WAV, no `fmt ` before `data`, an unsupported encoding, or a file cut short.
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

type State =
  | { kind: 'riff' }
  | { kind: 'chunk-header' }
  | { kind: 'fmt'; size: number }
  | { kind: 'skip'; left: number }
  | { kind: 'data'; left: number }
  | { kind: 'done' };

export class WavReader {
  /** Known once the `fmt ` chunk and the `data` chunk's header have been read. */
  format: WavFormat | null = null;
  private state: State = { kind: 'riff' };
  private pending: Buffer = Buffer.alloc(0);
  private framesRead = 0;
  private declaredData = -1;

  /** Feed the next bytes of the file; answers the PCM they complete (null for none). */
  push(chunk: Uint8Array): Float32Array[] | null {
    const out = this.consume(chunk);
    // What is left over may be a view of the caller's buffer, which it is free to reuse.
    if (this.pending.length) this.pending = Buffer.from(this.pending);
    return out;
  }

  private consume(chunk: Uint8Array): Float32Array[] | null {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.pending = this.pending.length ? Buffer.concat([this.pending, bytes]) : bytes;
    let out: Float32Array[] | null = null;
    for (;;) {
      const s = this.state;
      if (s.kind === 'riff') {
        if (this.pending.length < 12) return out;
        if (
          this.pending.toString('latin1', 0, 4) !== 'RIFF' ||
          this.pending.toString('latin1', 8, 12) !== 'WAVE'
        )
          throw new WavError('Not a WAV file (no RIFF/WAVE header)');
        this.pending = this.pending.subarray(12);
        this.state = { kind: 'chunk-header' };
      } else if (s.kind === 'chunk-header') {
        if (this.pending.length < 8) return out;
        const id = this.pending.toString('latin1', 0, 4);
        const size = this.pending.readUInt32LE(4);
        this.pending = this.pending.subarray(8);
        if (id === 'fmt ') this.state = { kind: 'fmt', size };
        else if (id === 'data') {
          if (!this.format) throw new WavError('The WAV data chunk comes before its fmt chunk');
          this.declaredData = size;
          this.format.frames = Math.floor(size / this.format.blockAlign);
          this.state = { kind: 'data', left: size };
        } else this.state = { kind: 'skip', left: size + (size % 2) };
      } else if (s.kind === 'fmt') {
        const need = s.size + (s.size % 2);
        if (this.pending.length < need) return out;
        this.format = parseFmt(this.pending.subarray(0, s.size));
        this.pending = this.pending.subarray(need);
        this.state = { kind: 'chunk-header' };
      } else if (s.kind === 'skip') {
        const n = Math.min(s.left, this.pending.length);
        this.pending = this.pending.subarray(n);
        s.left -= n;
        if (s.left > 0) return out;
        this.state = { kind: 'chunk-header' };
      } else if (s.kind === 'data') {
        const format = this.format!;
        const available = Math.min(s.left, this.pending.length);
        const usable = available - (available % format.blockAlign);
        if (usable > 0) {
          const pcm = decodeFrames(this.pending.subarray(0, usable), format);
          out = out ? concatChannels(out, pcm) : pcm;
          this.framesRead += usable / format.blockAlign;
          this.pending = this.pending.subarray(usable);
          s.left -= usable;
        }
        if (s.left >= format.blockAlign) return out;
        // The audio is complete (a partial last frame is dropped); later chunks (LIST, id3…)
        // carry nothing the stream or the waveform need.
        this.state = { kind: 'done' };
      } else {
        this.pending = Buffer.alloc(0);
        return out;
      }
    }
  }

  /** The file has ended: the frames read, or a WavError when it was cut short or empty. */
  end(): { frames: number } {
    const s = this.state;
    if (s.kind === 'done') return { frames: this.framesRead };
    if (s.kind === 'data') {
      throw new WavError(
        `The WAV file is truncated: its data chunk declares ${this.declaredData} bytes, ` +
          `the file holds ${this.declaredData - s.left}`,
      );
    }
    if (s.kind === 'riff') {
      throw new WavError(this.pending.length ? 'Not a WAV file (too short)' : 'The file is empty');
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
  if (sampleRate < 1) throw new WavError('The WAV file declares no sample rate');
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
