import fs from 'node:fs';

/**
 * WAV files generated for tests and benchmarks (never committed): a header for any of the
 * encodings the transcoder reads, and a body of `seconds` of a tone or of silence with loud
 * bursts at chosen seconds. Written in slices, so a 60-minute file never sits in memory.
 */
export type WavSpec = {
  seconds: number;
  sampleRate?: number;
  channels?: number;
  /** 'int' with 8, 16, 24 or 32 bits; 'float' with 32 or 64. */
  encoding?: 'int' | 'float';
  bits?: number;
  /** Write a WAVE_FORMAT_EXTENSIBLE fmt chunk. */
  extensible?: boolean;
  /** A sine of this frequency at -6 dB; without it, silence. */
  toneHz?: number;
  /** Seconds at which a full-scale burst of 50 ms plays (on every channel). */
  bursts?: number[];
  /** Chunks to write before `fmt ` and between `fmt ` and `data` (odd sizes allowed). */
  extraChunks?: { id: string; size: number; where: 'before-fmt' | 'before-data' | 'after-data' }[];
};

function chunk(id: string, body: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'latin1');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

function fmtChunk(
  s: Required<Pick<WavSpec, 'sampleRate' | 'channels' | 'encoding' | 'bits'>>,
  extensible: boolean,
) {
  const tag = s.encoding === 'float' ? 3 : 1;
  const blockAlign = (s.channels * s.bits) / 8;
  const body = Buffer.alloc(extensible ? 40 : 16);
  body.writeUInt16LE(extensible ? 0xfffe : tag, 0);
  body.writeUInt16LE(s.channels, 2);
  body.writeUInt32LE(s.sampleRate, 4);
  body.writeUInt32LE(s.sampleRate * blockAlign, 8);
  body.writeUInt16LE(blockAlign, 12);
  body.writeUInt16LE(s.bits, 14);
  if (extensible) {
    body.writeUInt16LE(22, 16);
    body.writeUInt16LE(s.bits, 18);
    body.writeUInt32LE(s.channels === 2 ? 3 : 4, 20);
    // The sub-format GUID: the tag, then 00000000-0010-8000-00aa00389b71.
    Buffer.from('0000000000001000800000aa00389b71', 'hex').copy(body, 26);
    body.writeUInt16LE(tag, 24);
  }
  return chunk('fmt ', body);
}

function writeSample(
  buf: Buffer,
  offset: number,
  v: number,
  encoding: 'int' | 'float',
  bits: number,
) {
  if (encoding === 'float') {
    if (bits === 32) buf.writeFloatLE(v, offset);
    else buf.writeDoubleLE(v, offset);
    return;
  }
  const c = Math.max(-1, Math.min(1, v));
  if (bits === 8) buf.writeUInt8(Math.round(c * 127) + 128, offset);
  else if (bits === 16) buf.writeInt16LE(Math.round(c * 32767), offset);
  else if (bits === 24) buf.writeIntLE(Math.round(c * 8388607), offset, 3);
  else buf.writeInt32LE(Math.round(c * 2147483647), offset);
}

/** Write the WAV to `file`; answers its size in bytes. */
export function writeWav(file: string, spec: WavSpec): number {
  const fd = fs.openSync(file, 'w');
  try {
    return emitWav(spec, (bytes) => fs.writeSync(fd, bytes));
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The WAV in memory, for a request body (a short file: a long one belongs on disk, with
 * `writeWav`). By default a second of 8 kHz mono 16-bit PCM silence.
 */
export function wavBuffer(spec: Partial<WavSpec> = {}): Buffer {
  const parts: Buffer[] = [];
  emitWav({ seconds: 1, sampleRate: 8000, channels: 1, ...spec }, (bytes) =>
    parts.push(Buffer.from(bytes)),
  );
  return Buffer.concat(parts);
}

/** The WAV's bytes in order, handed to `emit` slice by slice; answers the size. */
function emitWav(spec: WavSpec, emit: (bytes: Buffer) => void): number {
  const s = {
    sampleRate: spec.sampleRate ?? 44100,
    channels: spec.channels ?? 2,
    encoding: spec.encoding ?? 'int',
    bits: spec.bits ?? 16,
  } as const;
  const frames = Math.round(spec.seconds * s.sampleRate);
  const blockAlign = (s.channels * s.bits) / 8;
  const dataBytes = frames * blockAlign;
  const extra = (where: string) =>
    Buffer.concat(
      (spec.extraChunks ?? [])
        .filter((c) => c.where === where)
        .map((c) => chunk(c.id, Buffer.alloc(c.size, 0x20))),
    );
  const before = Buffer.concat([
    extra('before-fmt'),
    fmtChunk(s, Boolean(spec.extensible)),
    extra('before-data'),
  ]);
  const after = extra('after-data');
  const riffSize = 4 + before.length + 8 + dataBytes + (dataBytes % 2) + after.length;
  const head = Buffer.alloc(20);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(riffSize, 4);
  head.write('WAVE', 8, 'latin1');
  head.write('data', 12, 'latin1');
  head.writeUInt32LE(dataBytes, 16);
  emit(head.subarray(0, 12));
  emit(before);
  emit(head.subarray(12));
  const bursts = (spec.bursts ?? []).map((t) => [
    Math.round(t * s.sampleRate),
    Math.round((t + 0.05) * s.sampleRate),
  ]);
  const SLICE = 65536;
  const buf = Buffer.alloc(SLICE * blockAlign);
  const size = s.bits / 8;
  const w = spec.toneHz ? (2 * Math.PI * spec.toneHz) / s.sampleRate : 0;
  for (let start = 0; start < frames; start += SLICE) {
    const n = Math.min(SLICE, frames - start);
    for (let i = 0; i < n; i++) {
      const f = start + i;
      let v = spec.toneHz ? 0.5 * Math.sin(w * f) : 0;
      if (bursts.some(([a, b]) => f >= a! && f < b!)) v = f % 2 ? 0.99 : -0.99;
      for (let c = 0; c < s.channels; c++)
        writeSample(buf, (i * s.channels + c) * size, v, s.encoding, s.bits);
    }
    emit(buf.subarray(0, n * blockAlign));
  }
  if (dataBytes % 2) emit(Buffer.alloc(1));
  if (after.length) emit(after);
  return 12 + before.length + 8 + dataBytes + (dataBytes % 2) + after.length;
}

/**
 * A hostile WAV: the RIFF header, then one chunk `id` whose header declares `declared` bytes,
 * followed by `body` bytes of zeros (written in 1 MB slices). A `fmt ` chunk declaring 2 GB
 * with a few MB behind it is the review's reproduction of issue 38. Answers the size.
 */
export function writeDeclaredChunkWav(
  file: string,
  id: string,
  declared: number,
  body: number,
): number {
  const head = Buffer.alloc(20);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(Math.min(0xffffffff, 12 + declared), 4);
  head.write('WAVE', 8, 'latin1');
  head.write(id, 12, 'latin1');
  head.writeUInt32LE(declared, 16);
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, head);
    const slice = Buffer.alloc(1024 * 1024);
    for (let left = body; left > 0; left -= slice.length)
      fs.writeSync(fd, slice, 0, Math.min(left, slice.length));
  } finally {
    fs.closeSync(fd);
  }
  return head.length + body;
}

/** A short WAV (`seconds` of silence) whose fmt chunk says `sampleRate`, channels, bits as given. */
export function wavWithHeader(
  header: { sampleRate?: number; channels?: number; bits?: number; blockAlign?: number },
  seconds = 0.1,
): Buffer {
  const bytes = wavBuffer({ seconds, sampleRate: 8000, channels: 1, bits: 16 });
  // The fmt chunk's fields (wavBuffer writes RIFF, then fmt at byte 12: its body at 20).
  if (header.channels !== undefined) bytes.writeUInt16LE(header.channels, 22);
  if (header.sampleRate !== undefined) bytes.writeUInt32LE(header.sampleRate, 24);
  if (header.blockAlign !== undefined) bytes.writeUInt16LE(header.blockAlign, 32);
  if (header.bits !== undefined) bytes.writeUInt16LE(header.bits, 34);
  return bytes;
}

/** `writeDeclaredChunkWav`'s bytes in memory (a small `body`: for a request). */
export function declaredChunkWavBuffer(id: string, declared: number, body: number): Buffer {
  const head = Buffer.alloc(20);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(Math.min(0xffffffff, 12 + declared), 4);
  head.write('WAVE', 8, 'latin1');
  head.write(id, 12, 'latin1');
  head.writeUInt32LE(declared, 16);
  return Buffer.concat([head, Buffer.alloc(body)]);
}
