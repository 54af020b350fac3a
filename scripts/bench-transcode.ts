import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { processAudio } from '../app/media/transcode.server';
import { writeWav } from '../tests/helpers/wav';

/**
 * `npm run bench:transcode`: what a media job costs (decision 035), on a generated 60-minute
 * stereo 44.1 kHz 16-bit WAV (635 MB, written to a temp dir and removed after).
 *
 * Each measurement runs in a child process of its own, so its peak resident memory (maxRSS) is
 * its own: the floor (reading the file through the same 1 MB reads, nothing else), the peaks
 * alone (decode + peaks: what an MP3 at or below 320 kbps costs), and the full job (decode +
 * peaks + the 192 kbps MP3). Speed is given as a multiple of real time (audio seconds per
 * second of work). Options: BENCH_MINUTES (default 60).
 */
const MINUTES = Number(process.env.BENCH_MINUTES ?? 60);

type Measure = { ms: number; maxRssMb: number; extra?: string };

async function child(mode: string, input: string, output: string): Promise<void> {
  const started = performance.now();
  let extra = '';
  if (mode === 'read') {
    const fd = fs.openSync(input, 'r');
    const buffer = Buffer.alloc(1024 * 1024);
    let total = 0;
    for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0;) total += n;
    fs.closeSync(fd);
    extra = `${(total / 1024 / 1024).toFixed(0)} MB read`;
  } else {
    const result = await processAudio(input, mode === 'transcode' ? output : null);
    extra =
      `${result.peaks.length} points of ${result.peaks.samples_per_pixel} samples` +
      (mode === 'transcode'
        ? `, MP3 ${(fs.statSync(output).size / 1024 / 1024).toFixed(1)} MB`
        : '');
  }
  const measure: Measure = {
    ms: performance.now() - started,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    extra,
  };
  console.log(JSON.stringify(measure));
}

function run(mode: string, input: string, output: string): Measure {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.resolve('scripts/bench-transcode.ts'), '--child', mode, input, output],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  if (result.status !== 0) throw new Error(`${mode}: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as Measure;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-bench-transcode-'));
  try {
    const wav = path.join(dir, 'set.wav');
    const mp3 = path.join(dir, 'set.mp3');
    const seconds = MINUTES * 60;
    console.log(`generating a ${MINUTES}-minute stereo 44.1 kHz 16-bit WAV in ${dir}…`);
    const size = writeWav(wav, {
      seconds,
      sampleRate: 44100,
      channels: 2,
      toneHz: 220,
      bursts: [seconds / 2],
    });
    console.log(`${(size / 1024 / 1024).toFixed(0)} MB\n`);
    const rows: [string, Measure][] = [
      ['floor: read the file (1 MB reads)', run('read', wav, mp3)],
      ['peaks only (decode + peaks)', run('peaks', wav, mp3)],
      ['full job (decode + peaks + 192 kbps MP3)', run('transcode', wav, mp3)],
    ];
    console.log(
      `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ` +
        `${MINUTES} min of audio, one process per row.\n`,
    );
    console.log('measurement                                 seconds   × real time   peak RSS MB');
    for (const [name, m] of rows) {
      console.log(
        `${name.padEnd(42)}${(m.ms / 1000).toFixed(1).padStart(9)}${(seconds / (m.ms / 1000)).toFixed(0).padStart(14)}` +
          `${m.maxRssMb.toFixed(0).padStart(14)}   ${m.extra ?? ''}`,
      );
    }
    const full = rows[2]![1];
    const peaks = rows[1]![1];
    console.log(
      `\nTranscoding runs at ${(seconds / (full.ms / 1000)).toFixed(0)}× real time ` +
        `(${((full.ms / 1000 / seconds) * 3600).toFixed(0)} s per hour of audio), peaks alone at ` +
        `${(seconds / (peaks.ms / 1000)).toFixed(0)}× (${(peaks.ms / 1000).toFixed(1)} s for the ${MINUTES} minutes); ` +
        `memory stays at ${full.maxRssMb.toFixed(0)} MB for a ${(size / 1024 / 1024).toFixed(0)} MB file.`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const at = process.argv.indexOf('--child');
if (at >= 0) {
  const [mode, input, output] = process.argv.slice(at + 1) as [string, string, string];
  await child(mode, input, output);
} else {
  await main();
}
